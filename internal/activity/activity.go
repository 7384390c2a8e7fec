// Package activity bins a log's submissions per user and in total (Tsafrir's
// weekly activity, thesis §7.4 step 1, Figs. 6.8 and 6.9): the series
// sanitize's flurry detector reads and examples/flurries plots.
package activity

import (
	"fmt"
	"math"
	"sort"

	"github.com/batchq/batchq/swf"
)

// Week is the thesis's activity bin (Figs. 6.8, 6.9): seven days, in seconds.
const Week int64 = 7 * 24 * 3600

// allUsers is the User of the rows of Totals, which sum over every user.
const allUsers int64 = -1

// Row is one point of an activity series (thesis §7.4 step 1): the jobs and processes (Σ sizes) submitted in bin Week,
// which covers [Start, Start+bin), by User (or by everyone: −1). The
// field name follows the thesis's weekly plots; the bin width is the
// caller's.
type Row struct {
	Week  int   // bin index from the origin
	Start int64 // first second of the bin
	User  int64
	Jobs  int
	Procs int64 // Σ size (allocated processors, else requested), saturating: see AddSize
}

// BinOf returns the bin index of submit time t for bins of width bin > 0
// starting at origin: floor((t − origin) / bin), so times before origin get
// negative bins rather than sharing bin 0. It is exact for every t and
// origin, t − origin taken past int64's range (an unknown submit time −1 as
// origin and a corrupt 2^63 − 1 once wrapped to a negative bin). An index
// beyond int's range (bins of 1 s over 2^63 s or more; on 32-bit platforms,
// past 2^31 bins) saturates at math.MaxInt or math.MinInt; PerUser refuses
// it.
func BinOf(t, origin, bin int64) int {
	b, ok := binOf(t, origin, bin)
	if !ok && t > origin {
		return math.MaxInt
	}
	if !ok {
		return math.MinInt
	}
	return b
}

// binOf is BinOf with ok false when the index does not fit an int. The
// distance is taken in uint64, where any two int64s' difference fits.
func binOf(t, origin, bin int64) (int, bool) {
	if t >= origin {
		q := (uint64(t) - uint64(origin)) / uint64(bin)
		return int(q), q <= math.MaxInt
	}
	q := (uint64(origin)-uint64(t)-1)/uint64(bin) + 1 // ceil: the floor of a negative quotient
	if q-1 > math.MaxInt {
		return 0, false
	}
	return -int(q-1) - 1, true
}

func checkBin(bin int64) error {
	if bin <= 0 {
		return fmt.Errorf("activity: bin width %d s, want > 0", bin)
	}
	return nil
}

// Origin is the first submit time: bins start with the log, as the thesis's
// weeks do. An empty log has origin 0.
func Origin(jobs []swf.Job) int64 {
	if len(jobs) == 0 {
		return 0
	}
	o := jobs[0].Submit
	for i := range jobs {
		o = min(o, jobs[i].Submit)
	}
	return o
}

// Size is the job's processes for activity counts: unknown sizes count 0
// (the job still counts as a job).
func Size(j *swf.Job) int64 {
	return max(j.Size(), 0)
}

// AddSize returns sum + Size(j), saturating at math.MaxInt64: a corrupt
// size near 2^63 − 1 made a bin's sum wrap to a negative total, which hid
// the bin from flurry detection and lowered the normal level, silently.
// A sum of math.MaxInt64 means "at least that": the job is not changed,
// and its bin stands out as the largest there is. No real log comes near
// (the largest machines have about 2^23 processors).
func AddSize(sum int64, j *swf.Job) int64 {
	if s := sum + Size(j); s >= sum {
		return s
	}
	return math.MaxInt64
}

// PerUser returns the per-user series: one row per (bin, user) with at
// least one submission, sorted by bin and then user. Bins of width bin
// seconds start at the first submit time. Order of jobs does not matter.
// A submission whose bin index does not fit an int (see BinOf) is an error.
func PerUser(jobs []swf.Job, bin int64) ([]Row, error) {
	if err := checkBin(bin); err != nil {
		return nil, err
	}
	o := Origin(jobs)
	type key struct {
		b int
		u int64
	}
	m := map[key]*Row{}
	for i := range jobs {
		j := &jobs[i]
		b, ok := binOf(j.Submit, o, bin)
		if !ok {
			return nil, fmt.Errorf("activity: job %d submitted at %d, the first at %d: its bin of %d s is past an int (a corrupt submit time?)", j.ID, j.Submit, o, bin)
		}
		k := key{b, j.User}
		a := m[k]
		if a == nil {
			// b·bin may wrap (o < 0), o + b·bin does not: it lies in
			// [o, j.Submit], and int64 sums are exact modulo 2^64.
			a = &Row{Week: k.b, Start: o + int64(k.b)*bin, User: j.User}
			m[k] = a
		}
		a.Jobs++
		a.Procs = AddSize(a.Procs, j)
	}
	out := make([]Row, 0, len(m))
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

// maxBins bounds the rows of Totals (2^22, 160 MB of rows): a century of
// hourly bins is 876,600. One row a bin, empty bins included, so a corrupt
// submit time of 2^63 − 1 asked for 2^63/bin rows and panicked
// (makeslice: len out of range).
const maxBins = 1 << 22

// Totals returns the all-user series, one row per bin from the first
// submission to the last, empty bins included (a plot and a median need
// the quiet weeks too). User is −1. Submissions spanning more than
// 2^22 bins (a corrupt submit time) are an error.
func Totals(jobs []swf.Job, bin int64) ([]Row, error) {
	if err := checkBin(bin); err != nil {
		return nil, err
	}
	o, hi := Origin(jobs), int64(0)
	for i := range jobs {
		hi = max(hi, jobs[i].Submit)
	}
	// Unsigned, as hi − o overflows int64 when o < 0 (unknown submit −1).
	if span := uint64(hi) - uint64(o); hi > o && span/uint64(bin) >= maxBins {
		return nil, fmt.Errorf("activity: submissions span %d to %d, more than %d bins of %d s: a corrupt submit time?", o, hi, maxBins, bin)
	}
	return TotalsFrom(jobs, o, bin), nil
}

// TotalsFrom is Totals with bins starting at o, bin > 0, unchecked: the
// caller bounds the span (sanitize refuses more than 100 years).
func TotalsFrom(jobs []swf.Job, o, bin int64) []Row {
	if len(jobs) == 0 {
		return nil
	}
	last := 0
	for i := range jobs {
		last = max(last, BinOf(jobs[i].Submit, o, bin))
	}
	out := make([]Row, last+1)
	for b := range out {
		out[b] = Row{Week: b, Start: o + int64(b)*bin, User: allUsers}
	}
	for i := range jobs {
		b := BinOf(jobs[i].Submit, o, bin)
		if b < 0 {
			continue
		}
		out[b].Jobs++
		out[b].Procs = AddSize(out[b].Procs, &jobs[i])
	}
	return out
}
