package sched

import "sort"

// Profile is a free-processor profile, the availability profile of
// conservative backfilling: how many processors are free from each moment
// on, given the running jobs' expected ends and the slots already promised.
// Conservative backfilling places every waiting job with Fit and Allocate;
// package varq builds one from a QueueState for its size-aware wait floor.
//
// It is a step function kept as points (t, free) in a slice ascending in
// t, free holding from t to the next point; the last point extends
// forever. A slice, not a search tree: every Fit scans the points in order
// anyway, and a slice scan plus the memmove of an insert cost less than a
// B-tree's per-point callbacks (conservative backfilling on SDSC-BLUE,
// BenchmarkBlueConservative, ran 3.3x faster than on a B-tree, same
// schedule). Reset keeps the slice, so re-planning does not allocate.
//
// The zero Profile is empty until Reset: Fit reports false, Release and
// Allocate do nothing. A Profile is not safe for concurrent use.
type Profile struct {
	pts []point
}

type point struct{ t, free int64 }

// Reset empties the profile and starts it at now with free processors free
// from now on. Release then adds the running jobs' processors.
func (p *Profile) Reset(now, free int64) {
	p.pts = append(p.pts[:0], point{now, free})
}

// Release frees n more processors from t on (a running job ending at t).
// Call it after Reset and before any Allocate (a Release after an Allocate
// would miscount the allocation), ideally in ascending t: a t before the
// previous release, or before now, is tolerated and counts as that time,
// so a release already due counts from now. The caller decides what a stale
// end means: sched releases a job that outlived its prediction at now+1
// (its processors are still held, S3).
func (p *Profile) Release(t, n int64) {
	if len(p.pts) == 0 {
		return
	}
	last := &p.pts[len(p.pts)-1]
	if t <= last.t {
		last.free += n
		return
	}
	p.pts = append(p.pts, point{t, last.free + n})
}

// Fit returns the earliest time ≥ max(from, now) from which n processors
// stay free for d seconds, or 0, false if there is none (n is more than
// the last point frees). A d below 1 counts as 1: a job needs its
// processors free when it starts.
func (p *Profile) Fit(n, d, from int64) (int64, bool) {
	if len(p.pts) == 0 {
		return 0, false
	}
	d = max(d, 1)
	pts := p.pts
	if from > pts[0].t { // start at the step that holds at from
		pts = pts[p.search(from+1)-1:]
	}
	cand, open := int64(0), false
	for _, q := range pts {
		t := max(q.t, from)
		if open && t >= cand+d {
			break
		}
		if q.free >= n {
			if !open {
				cand, open = t, true
			}
		} else {
			open = false
		}
	}
	if !open {
		return 0, false
	}
	return cand, true
}

// Allocate takes n processors over [t, t+d); the part before now is
// ignored. A negative n gives processors back (undoes an Allocate).
func (p *Profile) Allocate(t, d, n int64) {
	end := t + d
	if len(p.pts) == 0 || d <= 0 || end <= p.pts[0].t {
		return
	}
	i := p.split(max(t, p.pts[0].t))
	j := p.split(end)
	for k := i; k < j; k++ {
		p.pts[k].free -= n
	}
}

// split makes sure a point exists at t (t ≥ the first point) and returns
// its index.
func (p *Profile) split(t int64) int {
	i := p.search(t)
	if i < len(p.pts) && p.pts[i].t == t {
		return i
	}
	p.pts = append(p.pts, point{})
	copy(p.pts[i+1:], p.pts[i:])
	p.pts[i] = point{t, p.pts[i-1].free}
	return i
}

// search returns the index of the first point at or after t.
func (p *Profile) search(t int64) int {
	return sort.Search(len(p.pts), func(i int) bool { return p.pts[i].t >= t })
}
