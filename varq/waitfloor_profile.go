package varq

import (
	"cmp"
	"slices"
)

// freeProfile is the free-processor profile of conservative backfilling as
// the resource manager sees it: a step function kept as points (t, free),
// ascending in t, free holding from t to the next point; the last point
// extends forever. sched has the same algorithm, unexported, on a B-tree
// with recycled points, clamping stale releases to after now and searching
// from now only; this one is a plain slice that searches from any time,
// because the profiles a wait floor builds are small (the running jobs
// plus the queue) and are built once per machine state. One shared
// internal profile for both is possible and not done.
type freeProfile struct{ pts []step }

type step struct{ t, free int64 }

// reset makes the profile at now: free processors now, plus processors
// released at the times of rel (any order; times before now count as now,
// since the scheduler kills a job at its estimate).
func (p *freeProfile) reset(now, free int64, rel []step) {
	slices.SortFunc(rel, func(a, b step) int { return cmp.Compare(a.t, b.t) })
	p.pts = append(p.pts[:0], step{now, free})
	for _, r := range rel {
		t := max(r.t, now)
		free += r.free
		if last := &p.pts[len(p.pts)-1]; last.t == t {
			last.free = free
			continue
		}
		p.pts = append(p.pts, step{t, free})
	}
}

// fit returns the earliest time ≥ from at which n processors stay free for
// d seconds, and false when n never fits (more than the last point frees).
func (p *freeProfile) fit(n, d, from int64) (int64, bool) {
	cand := int64(-1)
	for i, q := range p.pts {
		// The step [q.t, next) counts from `from` on.
		if i+1 < len(p.pts) && p.pts[i+1].t <= from {
			continue
		}
		t := max(q.t, from)
		if cand >= 0 && t >= cand+d {
			return cand, true
		}
		if q.free >= n {
			if cand < 0 {
				cand = t
			}
		} else {
			cand = -1
		}
	}
	return cand, cand >= 0
}

// allocate takes n processors over [t, t+d); t must be ≥ the first point.
func (p *freeProfile) allocate(t, d, n int64) {
	i := p.split(t)
	j := p.split(t + d)
	for k := i; k < j; k++ {
		p.pts[k].free -= n
	}
}

// split makes sure a point exists at t and returns its index.
func (p *freeProfile) split(t int64) int {
	i, found := slices.BinarySearchFunc(p.pts, t, func(q step, t int64) int { return cmp.Compare(q.t, t) })
	if found {
		return i
	}
	p.pts = slices.Insert(p.pts, i, step{t, p.pts[i-1].free})
	return i
}
