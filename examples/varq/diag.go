package main

import (
	"fmt"
	"io"
	"sort"

	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/varq"
	"github.com/batchq/batchq/varq/agent"
)

// The diagnosis (-diag) explains a cell's shortfall. VARQ promises
// P(start ≤ D) ≥ p where p = ProbWithin(D − s) ≥ target, that is where the
// forecaster's bound B(target) at submission is ≤ D − s. So a VARQ job
// succeeds whenever its wait is within B(target), and the promise is only
// as good as the coverage P(wait ≤ B(q)) of the forecaster for that job.
// The diagnosis measures that coverage, at each job's submission and with
// the predictor's state at that moment, for the ordinary jobs (by requested
// walltime and size) and for the padded VARQ jobs, and how the plan moved
// between acceptance and submission.

// boundAt is B(q) of the forecaster for a job of this shape: the smallest
// t with ProbWithin(t) ≥ q (ProbWithin is nondecreasing in t), or -1 when
// no t up to hi reaches q.
func boundAt(f varq.Forecaster, nodes int, walltime int64, q float64) int64 {
	const hi = 1 << 26 // 2 years: beyond any wait in the logs
	if p, _ := f.ProbWithin(nodes, walltime, hi); p < q {
		return -1
	}
	lo, up := int64(0), int64(hi)
	for lo < up {
		mid := (lo + up) / 2
		if p, _ := f.ProbWithin(nodes, walltime, mid); p >= q {
			up = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// covStat counts jobs whose wait was within the bound computed at their
// submission; jobs with no bound are counted apart.
type covStat struct{ n, in, none int }

func (c *covStat) add(bound, wait int64) {
	if bound < 0 {
		c.none++
		return
	}
	c.n++
	if wait <= bound {
		c.in++
	}
}

func (c covStat) String() string {
	if c.n == 0 {
		return fmt.Sprintf("– (0 jobs, %d without bound)", c.none)
	}
	return fmt.Sprintf("%.3f (%d jobs, %d without bound)", float64(c.in)/float64(c.n), c.n, c.none)
}

// diagObserver records, for every job at its submission, the bound
// B(target) for its own shape, and its wait when it starts.
type diagObserver struct {
	observer
	f      varq.Forecaster
	q      float64
	bounds map[int64]int64
	scored []scored
}

type scored struct {
	id, bound, wait, size, wall int64
}

func newDiag(o observer, f varq.Forecaster, q float64) *diagObserver {
	return &diagObserver{observer: o, f: f, q: q, bounds: map[int64]int64{}}
}

func (d *diagObserver) OnSubmit(now int64, j *swf.Job) {
	d.observer.OnSubmit(now, j)
	d.bounds[j.ID] = boundAt(d.f, int(j.Size()), j.ReqTime, d.q)
}

func (d *diagObserver) OnStart(now int64, j *swf.Job, backfilled bool) {
	if b, ok := d.bounds[j.ID]; ok {
		delete(d.bounds, j.ID)
		d.scored = append(d.scored, scored{id: j.ID, bound: b, wait: now - j.Submit, size: j.Size(), wall: j.ReqTime})
	}
	d.observer.OnStart(now, j, backfilled)
}

// diagResult is what the diagnosis measured in one cell.
type diagResult struct {
	ordinary, padded covStat             // coverage of ordinary and padded VARQ jobs
	byWall, bySize   map[string]*covStat // ordinary jobs, by wallBucket and sizeBucket
	answered, silent tally               // padded jobs submitted with a QBETS bound, and while it was silent
	queued           [4]tally            // by same-start VARQ jobs already queued at submission (3: 3+)
	fellBack         tally               // submitted below the target (argmax fallback)
}

// report prints the coverage of the ordinary jobs (the trace's, by
// walltime and size) and of the padded VARQ jobs; refused VARQ requests
// resubmitted as ordinary jobs count as ordinary. It returns that, the
// success of the padded VARQ jobs that started, split by whether QBETS
// gave a bound at their submission (the Replanner keeps its plan through
// QBETS's silence, suspected downtime §2.5, and those submissions go to a
// queue that has not released a job for a while), and the contention.
func (d *diagObserver) report(out io.Writer, outs []agent.Outcome) *diagResult {
	success := map[int64]bool{} // by job, the padded VARQ jobs submitted
	for _, o := range outs {
		if o.Submitted.Possible {
			success[o.Job] = o.Success
		}
	}
	r := &diagResult{byWall: map[string]*covStat{}, bySize: map[string]*covStat{}}
	for _, s := range d.scored {
		if ok, padded := success[s.id]; padded {
			r.padded.add(s.bound, s.wait)
			if s.bound < 0 {
				r.silent.add(ok)
			} else {
				r.answered.add(ok)
			}
			continue
		}
		r.ordinary.add(s.bound, s.wait)
		stat(r.byWall, wallBucket(s.wall)).add(s.bound, s.wait)
		stat(r.bySize, sizeBucket(s.size)).add(s.bound, s.wait)
	}
	fmt.Fprintf(out, "  ordinary jobs: %v\n", r.ordinary)
	printStats(out, "ordinary, walltime", r.byWall)
	printStats(out, "ordinary, size", r.bySize)
	fmt.Fprintf(out, "  padded VARQ jobs: %v\n", r.padded)
	for _, b := range []struct {
		name string
		tally
	}{{"with a bound", r.answered}, {"while QBETS was silent (no bound)", r.silent}} {
		if b.n > 0 {
			fmt.Fprintf(out, "  padded VARQ jobs submitted %s: %d jobs, achieved %.3f\n", b.name, b.n, b.rate())
		}
	}
	r.fellBack = printOutcomes(out, outs, d.q)
	r.queued = printContention(out, outs)
	return r
}

// tally counts successes among n jobs.
type tally struct{ n, ok int }

func (t *tally) add(ok bool) {
	t.n++
	if ok {
		t.ok++
	}
}

func (t tally) rate() float64 { return float64(t.ok) / float64(t.n) }

func stat(m map[string]*covStat, k string) *covStat {
	if m[k] == nil {
		m[k] = &covStat{}
	}
	return m[k]
}

func wallBucket(w int64) string {
	switch {
	case w <= 3600:
		return "a ≤ 1 h"
	case w <= 4*3600:
		return "b 1–4 h"
	case w <= 12*3600:
		return "c 4–12 h"
	}
	return "d > 12 h"
}

func sizeBucket(n int64) string {
	switch {
	case n <= 8:
		return "a 1–8"
	case n <= 64:
		return "b 9–64"
	case n <= 256:
		return "c 65–256"
	}
	return "d > 256"
}

func printStats(out io.Writer, title string, m map[string]*covStat) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(out, "  %s %s: %v\n", title, k[2:], *m[k])
	}
}

// printOutcomes summarises how the accepted plans fared: calibration of
// the promised probability and the drift between acceptance and
// submission. It returns the success of the plans submitted below the
// target (argmax fallback).
func printOutcomes(out io.Writer, outs []agent.Outcome, target float64) tally {
	var cal [5]tally
	var fellBack, fellBackOK, dropped, exact int
	var promised, submitted float64
	n := 0
	for _, o := range outs {
		if !o.Plan.Possible {
			continue
		}
		n++
		promised += o.Plan.Prob
		if !o.Submitted.Possible {
			dropped++
			continue
		}
		submitted += o.Submitted.Prob
		if o.Submitted.Prob < target {
			fellBack++
			if o.Success {
				fellBackOK++
			}
		}
		if o.Ran && o.Started == o.Plan.Start {
			exact++
		}
		k := min(int((o.Submitted.Prob-0.5)*10), 4)
		if k >= 0 {
			cal[k].add(o.Success)
		}
	}
	if n == 0 {
		fmt.Fprintln(out, "  no accepted request")
		return tally{}
	}
	fmt.Fprintf(out, "  accepted %d: mean promised %.3f, mean at submission %.3f; dropped before submission %d; "+
		"submitted below target (argmax fallback) %d, of which succeeded %d; started exactly at D %d\n",
		n, promised/float64(n), submitted/float64(n-dropped), dropped, fellBack, fellBackOK, exact)
	for k, b := range cal {
		if b.n > 0 {
			fmt.Fprintf(out, "  submitted with p in [%.1f, %.1f): %d jobs, achieved %.3f\n",
				0.5+0.1*float64(k), 0.6+0.1*float64(k), b.n, b.rate())
		}
	}
	return tally{n: fellBack, ok: fellBackOK}
}

// printContention splits the submitted VARQ jobs by how many VARQ jobs of
// the same start time were already queued when they were submitted (3:
// three or more), prints and returns it: the thesis's start times are
// common to all requests of a period, so these jobs compete with each
// other for the same instant.
func printContention(out io.Writer, outs []agent.Outcome) [4]tally {
	// Only jobs of one start time compete: grouped by it, the count is
	// quadratic in a period's jobs, not in the whole run's.
	byStart := map[int64][]int{}
	for i := range outs {
		if o := &outs[i]; o.Submitted.Possible {
			byStart[o.Plan.Start] = append(byStart[o.Plan.Start], i)
		}
	}
	var by [4]tally
	for _, group := range byStart {
		for _, i := range group {
			o := &outs[i]
			ahead := 0
			for _, j := range group {
				if p := &outs[j]; j != i && p.Submit <= o.Submit && (!p.Ran || p.Started > o.Submit) {
					ahead++
				}
			}
			by[min(ahead, 3)].add(o.Success)
		}
	}
	for k, b := range by {
		if b.n > 0 {
			more := ""
			if k == 3 {
				more = "+"
			}
			fmt.Fprintf(out, "  submitted with %d%s VARQ jobs of the same start already queued: %d jobs, achieved %.3f\n",
				k, more, b.n, b.rate())
		}
	}
	return by
}
