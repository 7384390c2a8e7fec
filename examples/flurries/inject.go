package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/batchq/batchq/internal/activity"
	"github.com/batchq/batchq/internal/flurrytest"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

// The detection-quality experiment of issue 6: inject a synthetic flurry of
// a known user into a cleaned log, run the detector, and check that one
// candidate names that user and its filter removes at least 90% of the
// injected jobs. Candidates the injection created that are not that one
// are wrong (precision); candidates on the uninjected log are listed
// separately, because the cleaned logs still hold homogeneous single-user
// bursts of their own.

// shape is a synthetic flurry shape, relative to the log it goes into.
type shape struct {
	name string
	// spec builds the flurry for a log whose median week carries medJobs
	// jobs and medProcs processes (Σ sizes).
	spec func(medJobs, medProcs float64) flurrytest.Synthetic
}

// flurry375 is the thesis's §6.2 flurry: 375 jobs of one user, size 32,
// estimate 5 min, run 1–2 min, submitted sequentially over 10 h.
var flurry375 = shape{"375 jobs/10 h", func(float64, float64) flurrytest.Synthetic {
	return flurrytest.Synthetic{Jobs: 375, Duration: 10 * hourSec, Size: 32, ReqTime: 300, RunMin: 60, RunMax: 120}
}}

// sp2Lift is how much the 375-job flurry adds to a median week of the
// cleaned SDSC-SP2 log, the log it came from: 375 × 32 processes over a
// median week of 6,299 (medianWeek; printed by -exp inject). It is a
// process flurry there: its week carries 2.9× the median processes.
const sp2Lift = 375 * 32 / 6299.0

// flurry375Scaled is the same flurry sized to be as strong on each log as
// on SDSC-SP2 (§8.1 measures flurries against the normal weekly rate): its
// processes are sp2Lift × the log's median week of processes, so its job
// count follows the machine (SDSC-SP2 375, KTH 269, CTC 1,018, SDSC-BLUE
// 4,293). On a big machine the original 375 jobs are an ordinary busy day.
var flurry375Scaled = shape{"375-job shape, SDSC-SP2 strength", func(_, medProcs float64) flurrytest.Synthetic {
	f := flurry375.spec(0, 0)
	f.Jobs = int(math.Round(sp2Lift * medProcs / float64(f.Size)))
	return f
}}

// multiWeek is a long flurry of small jobs (like SDSC-SP2 user 374 or
// LANL-CM5 user 38): size 1, estimate 10 min, run 5–60 s, at random times
// over 3 weeks, at intensity × the log's median weekly job count per week
// (intensity 2: the weeks carry about 3× normal activity, inside the
// thesis's 2×–10×).
func multiWeek(intensity float64) shape {
	return shape{fmt.Sprintf("3 weeks at %.1f× median week", intensity), func(med, _ float64) flurrytest.Synthetic {
		return flurrytest.Synthetic{Jobs: int(intensity * med * 3), Duration: 3 * activity.Week, Size: 1, ReqTime: 600, RunMin: 5, RunMax: 60, Random: true}
	}}
}

// positions are where flurries start, as fractions of the log's span.
var positions = []float64{0.1, 0.3, 0.5, 0.7, 0.9}

// outcome of one injection.
type outcome struct {
	right    bool
	coverage float64 // best coverage by a candidate naming the user
	wrong    int     // new candidates that are not the right one
	lift     float64 // the right candidate's WeekLift
}

// trial injects sh (sized for the log's median week medJobs, medProcs)
// at position pos (fraction of the span) under user u (fresh: a new user
// id; otherwise the busiest user of the weeks around pos) and scores the
// detector.
func trial(jobs []swf.Job, medJobs, medProcs float64, base sanitize.Candidates, sh shape, pos float64, fresh bool, seed uint64, cfg sanitize.FlurryConfig) (outcome, error) {
	s := sh.spec(medJobs, medProcs)
	if len(jobs) == 0 {
		return outcome{}, errors.New("no job to inject a flurry among")
	}
	if s.Jobs < 1 {
		// (flurrytest said "synthetic flurry Jobs 0, want > 0".)
		return outcome{}, smallMedian(medJobs, medProcs)
	}
	first, last := jobs[0].Submit, jobs[len(jobs)-1].Submit
	if last-first < s.Duration {
		// The window would start before the log (flurrytest's "window
		// [-29453, +1814400], want ≥ 0" on a 10-day log).
		return outcome{}, fmt.Errorf("the log spans %.1f days, less than the flurry's %.1f: no room to inject it", float64(last-first)/86400, float64(s.Duration)/86400)
	}
	s.Start = first + int64(pos*float64(last-first-s.Duration))
	if fresh {
		s.User = newUser(jobs)
	} else {
		s.User = busiest(jobs, s.Start-2*activity.Week, s.Start+s.Duration+2*activity.Week)
	}
	rng := rand.New(rand.NewPCG(seed, uint64(pos*1000)))
	inj, ids, err := flurrytest.Inject(jobs, s, rng)
	if err != nil {
		return outcome{}, err
	}
	cs, err := sanitize.DetectFlurries(inj, cfg)
	if err != nil {
		return outcome{}, err
	}
	byID := map[int64]*swf.Job{}
	for i := range inj {
		byID[inj[i].ID] = &inj[i]
	}
	var o outcome
	for _, c := range cs {
		if c.User == s.User {
			n := 0
			for _, id := range ids {
				if c.Filter.Match(byID[id]) {
					n++
				}
			}
			cov := float64(n) / float64(len(ids))
			o.coverage = max(o.coverage, cov)
			if cov >= 0.9 && !o.right {
				o.right = true
				o.lift = c.WeekLift
				continue
			}
		}
		if !native(base, c) {
			o.wrong++
		}
	}
	return o, nil
}

// native reports whether c is (an overlapping version of) a candidate of
// the uninjected log: same user and kind, overlapping span.
func native(base sanitize.Candidates, c sanitize.Candidate) bool {
	for _, b := range base {
		if b.User == c.User && b.Size == c.Size && b.ReqTime == c.ReqTime && b.First <= c.Last && c.First <= b.Last {
			return true
		}
	}
	return false
}

// medianWeek is the median over the log's weeks (7-day bins of the submit
// time from 0) of the jobs and of the processes (Σ sizes) submitted.
func medianWeek(name string, jobs []swf.Job) (jobsPerWeek, procsPerWeek float64, err error) {
	tot, err := weekTotals(name, jobs)
	if err != nil {
		return 0, 0, err
	}
	nj, np := make([]int64, len(tot)), make([]int64, len(tot))
	for i := range tot {
		nj[i], np[i] = int64(tot[i].Jobs), tot[i].Procs
	}
	slices.Sort(nj)
	slices.Sort(np)
	return float64(nj[len(nj)/2]), float64(np[len(np)/2]), nil
}

// smallMedian says why a flurry sized by the log's median week, medJobs
// jobs of medProcs processes in all, has no job, and what to do.
func smallMedian(medJobs, medProcs float64) error {
	// (A median week of a job or two is not empty: "with jobs in most of
	// their weeks" was no advice for it, and it said "1 jobs".)
	why := fmt.Sprintf("has %s of %s in all, too few", count(medJobs, "job", "jobs"), count(medProcs, "process", "processes"))
	need := "more jobs in a typical week"
	switch {
	case medJobs == 0:
		why, need = "is empty (no job was submitted in half the log's weeks or more)", "jobs in most of their weeks"
	case medProcs == 0:
		why = fmt.Sprintf("has %s, all of size 0", count(medJobs, "job", "jobs"))
	}
	return fmt.Errorf("the flurry is sized by the log's median week, which %s, so it has no job: "+
		"this experiment needs logs (-traces) with %s", why, need)
}

// count is "1 job" or "n jobs": n with one or many.
func count(n float64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%.0f %s", n, many)
}

// weekScale is how much synthetic flurry f lifts a median week of the log,
// in jobs and in processes: the thesis's §8.1 scale (observed flurries run
// at 2×–10× the average weekly rate).
func weekScale(name string, jobs []swf.Job, f flurrytest.Synthetic) (medJobs, medProcs, jobsX, procsX float64, err error) {
	if medJobs, medProcs, err = medianWeek(name, jobs); err != nil {
		return 0, 0, 0, 0, err
	}
	if medJobs == 0 || medProcs == 0 { // (the lift of an empty week is no number)
		return 0, 0, 0, 0, fmt.Errorf("%s: %w", name, smallMedian(medJobs, medProcs))
	}
	return medJobs, medProcs, (medJobs + float64(f.Jobs)) / medJobs, (medProcs + float64(f.Jobs)*float64(f.Size)) / medProcs, nil
}

// newUser is a user id no job of the log has: one past the largest, or,
// when the largest is 2^63−1 (one past it would wrap to a negative id, a
// user-less job's), the smallest id ≥ 0 no job has.
func newUser(jobs []swf.Job) int64 {
	m := int64(0)
	for i := range jobs {
		m = max(m, jobs[i].User)
	}
	if m < math.MaxInt64 {
		return m + 1
	}
	seen := make(map[int64]bool, len(jobs))
	for i := range jobs {
		seen[jobs[i].User] = true
	}
	u := int64(0)
	for seen[u] {
		u++
	}
	return u
}

// busiest is the user with the most jobs submitted in [a, b]. The
// user-less jobs (−1) are no user, whose flurry DetectFlurries would
// never flag: a window with none of a user's is given a new user.
func busiest(jobs []swf.Job, a, b int64) int64 {
	n := map[int64]int{}
	for i := range jobs {
		if jobs[i].Submit >= a && jobs[i].Submit <= b && jobs[i].User >= 0 {
			n[jobs[i].User]++
		}
	}
	best, bn := int64(0), -1
	for u, k := range n {
		if k > bn || k == bn && u < best {
			best, bn = u, k
		}
	}
	if bn < 0 {
		return newUser(jobs)
	}
	return best
}

// score is recall and precision over a set of trials.
type score struct {
	trials, right, wrong int
	minCov, minLift      float64
}

func (s *score) add(o outcome) {
	if s.trials == 0 || o.coverage < s.minCov {
		s.minCov = o.coverage
	}
	if o.right && (s.minLift == 0 || o.lift < s.minLift) {
		s.minLift = o.lift
	}
	s.trials++
	if o.right {
		s.right++
	}
	s.wrong += o.wrong
}

func (s score) recall() float64 { return float64(s.right) / float64(max(s.trials, 1)) }
func (s score) precision() float64 {
	if s.right+s.wrong == 0 {
		return 1
	}
	return float64(s.right) / float64(s.right+s.wrong)
}

// injectRow is one shape injected into one log: its score and how many of
// the log's own candidates are at least as strong as the weakest detected
// injection (a detector that finds the injection cannot be blind to them).
type injectRow struct {
	log, shape      string
	sc              score
	stronger, nbase int
}

// injectLog runs every shape × position × user choice on one log.
func injectLog(name string, jobs []swf.Job, shapes []shape, cfg sanitize.FlurryConfig) ([]injectRow, error) {
	base, err := sanitize.DetectFlurries(jobs, cfg)
	if err != nil {
		return nil, err
	}
	medJobs, medProcs, err := medianWeek(name, jobs)
	if err != nil {
		return nil, err
	}
	var rows []injectRow
	for _, sh := range shapes {
		var sc score
		for _, pos := range positions {
			for _, fresh := range []bool{true, false} {
				o, err := trial(jobs, medJobs, medProcs, base, sh, pos, fresh, 1, cfg)
				if err != nil {
					return nil, fmt.Errorf("%s, %s: %w", name, sh.name, err)
				}
				sc.add(o)
			}
		}
		r := injectRow{log: name, shape: sh.name, sc: sc, nbase: len(base)}
		for _, c := range base {
			if c.WeekLift >= sc.minLift && sc.minLift > 0 {
				r.stronger++
			}
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// injectAll injects the shapes into each of the cleaned logs.
func injectAll(dir string, shapes []shape, st setup) ([]injectRow, error) {
	var rows []injectRow
	for _, name := range cleaned {
		jobs, err := load(dir, name, st.sane, st.notes)
		if err != nil {
			return nil, err
		}
		r, err := injectLog(tracetest.ShortName(name), jobs, shapes, st.det)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
	}
	return rows, nil
}

func writeInject(w io.Writer, rows []injectRow) {
	fmt.Fprintln(w, "| log | injected flurry | trials | right | recall | precision | min coverage | min week lift | native candidates with week lift ≥ it |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %s | %d | %d | %.2f | %.2f | %.2f | %.2f | %d of %d |\n", r.log, r.shape, r.sc.trials, r.sc.right,
			r.sc.recall(), r.sc.precision(), r.sc.minCov, r.sc.minLift, r.stronger, r.nbase)
	}
}

// readmeShapes are the shapes of the detection-quality table.
var readmeShapes = []shape{flurry375, flurry375Scaled, multiWeek(2)}

// injectSections is the detection-quality experiment and, for the default
// setup, how strong each shape is on each log.
func injectSections(dir string, st setup) ([]section, error) {
	rows, err := injectAll(dir, readmeShapes, st)
	if err != nil {
		return nil, err
	}
	ss := []section{injectSection(rows, st)}
	if st.suffix() == "" {
		scale, err := scaleSection(dir, st)
		if err != nil {
			return nil, err
		}
		ss = append(ss, scale)
	}
	return ss, nil
}

func injectSection(rows []injectRow, st setup) section {
	return section{"inject" + st.suffix(), "## Detection quality: injected flurries", textOf(func(w io.Writer) { writeInject(w, rows) })}
}

// sweepSections is the 3-week flurry at other intensities.
func sweepSections(dir string, st setup) ([]section, error) {
	rows, err := injectAll(dir, []shape{multiWeek(1), multiWeek(1.5), multiWeek(3)}, st)
	if err != nil {
		return nil, err
	}
	return []section{{"sweep" + st.suffix(), "## Where detection stops", textOf(func(w io.Writer) { writeInject(w, rows) })}}, nil
}

// scaleSection is each shape's size and strength on each log, against the
// log's median week (the thesis's §8.1 scale: observed flurries run at
// 2×–10× the average weekly rate).
func scaleSection(dir string, st setup) (section, error) {
	var rows []string
	for _, name := range cleaned {
		jobs, err := load(dir, name, st.sane, st.notes)
		if err != nil {
			return section{}, err
		}
		mj, mp, jx, px, err := weekScale(tracetest.ShortName(name), jobs, flurry375.spec(0, 0))
		if err != nil {
			return section{}, err
		}
		scaled := flurry375Scaled.spec(mj, mp)
		long := multiWeek(2).spec(mj, mp)
		rows = append(rows, fmt.Sprintf("| %s | %.0f / %.0f | %.2f× / %.2f× | %d (one every %.1f s) | %d |", tracetest.ShortName(name), mj, mp, jx, px,
			scaled.Jobs, float64(scaled.Duration)/float64(scaled.Jobs), long.Jobs))
	}
	return section{"inject-scale", "### The shapes against a median week", textOf(func(w io.Writer) {
		fmt.Fprintf(w, "| log | median week: jobs / processes | week with the literal 375 jobs: jobs / processes | jobs of the 375-job shape at SDSC-SP2 strength (%.2f median weeks of processes) | jobs of the 3-week flurry at 2× |\n", sp2Lift)
		fmt.Fprintln(w, "|---|---|---|---|---|")
		fmt.Fprintln(w, strings.Join(rows, "\n"))
	})}, nil
}

// weekLiftSettings are the detector settings of the trade-off table.
var weekLiftSettings = []struct {
	name string
	det  sanitize.FlurryConfig
}{
	{"off (-1)", sanitize.FlurryConfig{WeekLift: -1}},
	{"off, Factor 2", sanitize.FlurryConfig{WeekLift: -1, Factor: 2}},
	{"off, Factor 3", sanitize.FlurryConfig{WeekLift: -1, Factor: 3}},
	{"0.5", sanitize.FlurryConfig{WeekLift: 0.5}},
	{"0.75", sanitize.FlurryConfig{WeekLift: 0.75}},
	{"1 (default)", sanitize.FlurryConfig{}},
	{"1.5", sanitize.FlurryConfig{WeekLift: 1.5}},
	{"2", sanitize.FlurryConfig{WeekLift: 2}},
}

// weekLiftSections trades native candidates against the recall of the
// literal 375-job flurry and of the 3-week flurry, per detector setting
// (the -bins and -quantile flags still apply).
func weekLiftSections(dir string, st setup) ([]section, error) {
	var rows []string
	for _, set := range weekLiftSettings {
		s := st
		s.det.WeekLift, s.det.Factor = set.det.WeekLift, set.det.Factor
		ns, err := detectNative(dir, cleaned, s)
		if err != nil {
			return nil, err
		}
		inj, err := injectAll(dir, []shape{flurry375, multiWeek(2)}, s)
		if err != nil {
			return nil, err
		}
		row := "| " + set.name + " |"
		for _, l := range ns {
			row += " " + perYear(len(l.cs), l.years, 1) + " |"
		}
		for _, sh := range []string{flurry375.name, multiWeek(2).name} {
			var rs []string
			for _, r := range inj {
				if r.shape == sh {
					rs = append(rs, fmt.Sprintf("%.1f", r.sc.recall()))
				}
			}
			row += " " + strings.Join(rs, " / ") + " |"
		}
		rows = append(rows, row)
	}
	var names []string
	for _, name := range cleaned {
		names = append(names, tracetest.ShortName(name))
	}
	return []section{{"weeklift" + st.suffix(), "## The weekly test's trade-off", textOf(func(w io.Writer) {
		fmt.Fprintf(w, "| WeekLift | %s | recall of the literal 375 jobs (%s) | recall of the 3-week flurry at 2× (same order) |\n",
			strings.Join(names, " | "), strings.Join(names, " / "))
		fmt.Fprintln(w, "|---|"+strings.Repeat("---:|", len(names))+"---|---|")
		fmt.Fprintln(w, strings.Join(rows, "\n"))
	})}}, nil
}
