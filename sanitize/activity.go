package sanitize

import (
	"fmt"
	"sort"

	"github.com/batchq/batchq/swf"
)

// Week is the thesis's activity bin (Figs. 6.8, 6.9): seven days, in seconds.
const Week int64 = 7 * 24 * 3600

// allUsers is the User of the rows of Totals, which sum over every user.
const allUsers int64 = -1

// WeekActivity is one point of an activity series (thesis §7.4 step 1,
// spec §8.2): the jobs and processes (Σ sizes) submitted in bin Week,
// which covers [Start, Start+bin), by User (or by everyone: −1). The
// name follows the thesis's weekly plots; the bin width is the caller's.
type WeekActivity struct {
	Week  int   // bin index from the origin
	Start int64 // first second of the bin
	User  int64
	Jobs  int
	Procs int64 // Σ size (allocated processors, else requested)
}

// binOf returns the bin index of submit time t for bins of width bin
// starting at origin (floor division, so times before origin get negative
// bins rather than sharing bin 0).
func binOf(t, origin, bin int64) int {
	d := t - origin
	if d < 0 {
		return int((d - bin + 1) / bin)
	}
	return int(d / bin)
}

func checkBin(bin int64) error {
	if bin <= 0 {
		return fmt.Errorf("sanitize: bin width %d s, want > 0", bin)
	}
	return nil
}

// origin is the first submit time: bins start with the log, as the thesis's
// weeks do. An empty log has origin 0.
func origin(jobs []swf.Job) int64 {
	if len(jobs) == 0 {
		return 0
	}
	o := jobs[0].Submit
	for i := range jobs {
		o = min(o, jobs[i].Submit)
	}
	return o
}

// size is the job's processes for activity counts: unknown sizes count 0
// (the job still counts as a job).
func size(j *swf.Job) int64 {
	return max(j.Size(), 0)
}

// Activity returns the per-user series: one row per (bin, user) with at
// least one submission, sorted by bin and then user. Bins of width bin
// seconds start at the first submit time. Order of jobs does not matter.
func Activity(jobs []swf.Job, bin int64) ([]WeekActivity, error) {
	if err := checkBin(bin); err != nil {
		return nil, err
	}
	o := origin(jobs)
	type key struct {
		b int
		u int64
	}
	m := map[key]*WeekActivity{}
	for i := range jobs {
		j := &jobs[i]
		k := key{binOf(j.Submit, o, bin), j.User}
		a := m[k]
		if a == nil {
			a = &WeekActivity{Week: k.b, Start: o + int64(k.b)*bin, User: j.User}
			m[k] = a
		}
		a.Jobs++
		a.Procs += size(j)
	}
	out := make([]WeekActivity, 0, len(m))
	for _, a := range m {
		out = append(out, *a)
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Week != out[b].Week {
			return out[a].Week < out[b].Week
		}
		return out[a].User < out[b].User
	})
	return out, nil
}

// Totals returns the all-user series, one row per bin from the first
// submission to the last, empty bins included (a plot and a median need
// the quiet weeks too). User is −1.
func Totals(jobs []swf.Job, bin int64) ([]WeekActivity, error) {
	if err := checkBin(bin); err != nil {
		return nil, err
	}
	return totals(jobs, origin(jobs), bin), nil
}

func totals(jobs []swf.Job, o, bin int64) []WeekActivity {
	if len(jobs) == 0 {
		return nil
	}
	last := 0
	for i := range jobs {
		last = max(last, binOf(jobs[i].Submit, o, bin))
	}
	out := make([]WeekActivity, last+1)
	for b := range out {
		out[b] = WeekActivity{Week: b, Start: o + int64(b)*bin, User: allUsers}
	}
	for i := range jobs {
		b := binOf(jobs[i].Submit, o, bin)
		if b < 0 {
			continue
		}
		out[b].Jobs++
		out[b].Procs += size(&jobs[i])
	}
	return out
}
