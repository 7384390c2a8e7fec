package slurm

import "slices"

// plan is a backfill cycle's plan of the free CPUs over time (Slurm's
// node_space), sched.Profile's step function cut to what a cycle does:
// every query starts at the first point (now) or at a start found
// earlier that it cannot precede, and the reservation of a job goes
// where its query found room. Points (t, free) ascend in t,
// free holding from t to the next point, the last forever. It scans
// rather than searches: a cycle's plan has a few dozen points, and a
// scan from the point its query returned finds the place of an
// allocation without a search's calls.
//
// A cycle's last allocation would change nothing, so each waits, in
// pend, for the next query, which makes it first: the cycle's loop then
// makes one call a job, after which it reloads its values, not two.
type plan struct {
	// The points as two arrays: the scans read one of them, or both in
	// step, 8 bytes apart rather than 16 (an index scaled by 8 is an
	// addressing mode; by 16 a shift more). fr is as long as ts.
	ts, fr []int64
	pend   struct {
		t, d, n int64
		from    int
	}
	// mono: no point after index mono has fewer free CPUs than the point
	// before it (the plan never falls from there on). A query whose start
	// lies there needs no walk over its span: every point after it has at
	// least its CPUs. Releases only raise the plan; an allocation makes it
	// fall only at its start, so mono is at least the index of every
	// allocation's start (the latest of them: a later allocation may start
	// earlier), moved with the points inserted before it.
	mono int
	// The last query that found a start in the window: its CPUs, its
	// duration (at least 1) and the index of its start.
	last struct {
		n, d int64
		at   int
	}
}

// reset starts the plan at now with free CPUs free from now on.
func (p *plan) reset(now, free int64) {
	p.ts = append(p.ts[:0], now)
	p.fr = append(p.fr[:0], free)
	p.pend.n = 0
	p.mono = 0
	p.last.n, p.last.d, p.last.at = never, never, 0
}

// hold is allocate(t, d, n, from) made at the next query.
func (p *plan) hold(t, d, n int64, from int) {
	p.pend.t, p.pend.d, p.pend.n, p.pend.from = t, d, n, from
}

// release frees n more CPUs from t on (a running job ending at t), in
// ascending t after reset; a t at or before the last point counts as
// that point's.
func (p *plan) release(t, n int64) {
	k := len(p.ts) - 1
	if t <= p.ts[k] {
		p.fr[k] += n
		return
	}
	p.ts = append(p.ts, t)
	p.fr = append(p.fr, p.fr[k]+n)
}

// releaseEnds is release for each job of run at its end (start + time
// limit), run sorted by it: one loop, the last point's time and free CPUs
// in locals.
func (p *plan) releaseEnds(run []*jobRec) {
	// Room for a point a job first, so that the loop appends by index,
	// without append's calls.
	k := len(p.ts) - 1 // the last point
	ts := slices.Grow(p.ts, len(run))[:k+1+len(run)]
	fr := slices.Grow(p.fr, len(run))[:len(ts)]
	lt, lf := ts[k], fr[k]
	for _, r := range run {
		if t := r.start + r.limit; t > lt {
			fr[k] = lf
			k++
			ts[k] = t
			lt = t
		}
		lf += r.planCPUs()
	}
	fr[k] = lf
	p.ts, p.fr = ts[:k+1], fr[:k+1]
}

// fit returns the earliest time from which n CPUs stay free for d
// seconds (d below 1 counts as 1) and the index of the point that holds
// then, or false if there is none: sched.Profile.Fit from now. A start
// after by is not looked for: fit returns instead the first time after by
// that could begin one, no later than the earliest start if there is
// one, with index -1 (backfill plans no job beyond its window; it only
// bounds when one may enter it).
//
// A query asking no fewer CPUs for no less time than the last one that
// found a start in the window starts no earlier, as the plan only loses
// CPUs between queries: its scan begins at that start, whose point keeps
// its index (an allocation adds points only after its own start, the
// last query's). On SDSC-BLUE 58% of the queries, 21M of the 50M points
// their scans read from now.
func (p *plan) fit(n, d, by int64) (int64, int, bool) {
	if p.pend.n != 0 { // the allocation hold left
		p.allocPend()
	}
	d = max(d, 1)
	ts := p.ts
	fr := p.fr[:len(ts)] // as long as ts: one bound check serves both
	i := 0
	if n >= p.last.n && d >= p.last.d {
		i = p.last.at
	}
	for {
		// uint: the loop's bound is then also the index's check.
		for uint(i) < uint(len(fr)) && fr[i] < n {
			i++
		}
		if uint(i) >= uint(len(ts)) {
			return 0, -1, false
		}
		cand, at := ts[i], i
		if cand > by {
			return cand, -1, true
		}
		if at >= p.mono { // no point from at on has fewer CPUs than it
			p.last.n, p.last.d, p.last.at = n, d, at
			return cand, at, true
		}
		end := cand + d // a local: the loop would add it at each point
		for i++; uint(i) < uint(len(ts)) && ts[i] < end && fr[i] >= n; i++ {
		}
		if uint(i) >= uint(len(ts)) || ts[i] >= end {
			p.last.n, p.last.d, p.last.at = n, d, at
			return cand, at, true
		}
		// Too few CPUs at point i, within the window: look after it.
		i++
	}
}

// allocate takes n CPUs over [t, t+d), d > 0, t at or after the point
// at index from (which holds at t or before it): sched.Profile.Allocate.
func (p *plan) allocate(t, d, n int64, from int) {
	p.hold(t, d, n, from)
	p.allocPend()
}

// allocPend makes the allocation hold left.
func (p *plan) allocPend() {
	t, d, n, from := p.pend.t, p.pend.d, p.pend.n, p.pend.from
	p.pend.n = 0
	if d <= 0 {
		return
	}
	// One walk: take n from every point in [t, t+d), then the point at
	// t+d, if new, gets back the CPUs of the point before it.
	k := from // most often the point at t: fit's start
	if uint(k) >= uint(len(p.ts)) || p.ts[k] != t {
		k = p.split(t, from)
	}
	end := t + d
	ts := p.ts // locals: a store through p.fr would reload them
	fr := p.fr[:len(ts)]
	start := k
	for ; uint(k) < uint(len(ts)) && ts[k] < end; k++ {
		fr[k] -= n
	}
	if start > p.mono { // the plan may fall at the allocation's start
		p.mono = start
	}
	if k < len(ts) && ts[k] == end {
		return
	}
	p.insert(k, end, fr[k-1]+n)
}

// insert makes point (t, free) the point at index k, 0 < k ≤ len. The
// points after it move in one loop over both arrays: a few points most
// often, for which two copy calls (memmove) cost twice as much.
func (p *plan) insert(k int, t, free int64) {
	if p.mono >= k { // the points from k on move up one
		p.mono++
	}
	p.ts = append(p.ts, t)
	p.fr = append(p.fr, free)
	// Forward, each point taking the one before it: the indexes ascend,
	// so the compiler drops their checks.
	ts, fr := p.ts, p.fr[:len(p.ts)]
	i := k
	for ; uint(i+1) < uint(len(ts)); i += 2 { // two points a step
		t0, f0 := ts[i], fr[i]
		ts[i], fr[i] = t, free
		t, free = ts[i+1], fr[i+1]
		ts[i+1], fr[i+1] = t0, f0
	}
	if uint(i) < uint(len(ts)) {
		ts[i], fr[i] = t, free
	}
}

// split makes sure a point exists at t, at or after the point at index
// from, and returns its index.
func (p *plan) split(t int64, from int) int {
	i, ts := from, p.ts
	for uint(i) < uint(len(ts)) && ts[i] < t {
		i++
	}
	if i < len(ts) && ts[i] == t {
		return i
	}
	p.insert(i, t, p.fr[i-1])
	return i
}

// endGuess is when Slurm's backfill takes running job r to end, planning
// at now: select/cons_tres's _will_run_test (cons_common/job_test.c in
// 22.05) frees a job's resources at its end_time, its start plus its time
// limit, while that is ahead; a job already past it (one granted
// OverTimeLimit, or waiting for the next limit check) ends at _guess_job_end's end_time + KillWait +
// OverTimeLimit, and never before now+1. The model kills a job at its
// limit plus OverTimeLimit at slurmctld's next limit check (KillCheck),
// up to 30 s later, so the guess, like Slurm's, is not the job's end in
// the simulation.
func (p *Policy) endGuess(r *jobRec, now int64) int64 {
	if e := r.start + r.limit; e > now {
		return e
	}
	return max(r.start+r.limit+p.cfg.OverTimeLimit+p.killWait(), now+1)
}

// killWait is KillWait in seconds (Config.KillWait: 0 is 30 s, -1 is 0).
func (p *Policy) killWait() int64 {
	switch p.cfg.KillWait {
	case 0:
		return 30
	case -1:
		return 0
	}
	return p.cfg.KillWait
}

// killCheck is sched.Config.KillCheck for Config.KillCheck: slurmctld's
// 30 s by default, 0 (a kill at the limit at once) when negative.
func (p *Policy) killCheck() int64 {
	switch {
	case p.cfg.KillCheck == 0:
		return 30
	case p.cfg.KillCheck < 0:
		return 0
	}
	return p.cfg.KillCheck
}

// runningEnds yields the running jobs with their endGuess, in ascending
// time. p.running is sorted by end (start + limit, cmpEnd): its overdue
// jobs come first, with guesses ascending among them but, with an
// OverTimeLimit, later than some jobs after them, so the two runs are
// merged.
func (p *Policy) runningEnds(now int64) func(yield func(int64, *jobRec) bool) {
	return func(yield func(int64, *jobRec) bool) {
		run := p.running
		k := 0 // the overdue prefix
		for k < len(run) && run[k].start+run[k].limit <= now {
			k++
		}
		i, j := 0, k
		for i < k || j < len(run) {
			var t int64
			var r *jobRec
			if i < k {
				t, r = p.endGuess(run[i], now), run[i]
			}
			if j < len(run) && (r == nil || run[j].start+run[j].limit < t) {
				t, r = run[j].start+run[j].limit, run[j]
				j++
			} else {
				i++
			}
			if !yield(t, r) {
				return
			}
		}
	}
}
