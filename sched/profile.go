package sched

import "github.com/google/btree"

// profile is the free-processor profile of conservative backfilling: a
// step function kept as points (t, free) in a B-tree, free holding from t
// to the next point; the last point extends forever.
type profile struct {
	pts *btree.BTreeG[point]
	buf []point
}

type point struct{ t, free int64 }

func lessPoint(a, b point) bool { return a.t < b.t }

// reset makes the profile: free processors now, plus each running job's
// processors released at its predicted end (clamped to after now: a stale
// prediction still holds its processors, A3). ends must be ascending.
func (p *profile) reset(now, free int64, release func(yield func(t, n int64))) {
	if p.pts == nil {
		p.pts = btree.NewG(32, lessPoint)
	}
	p.pts.Clear(true)
	p.pts.ReplaceOrInsert(point{now, free})
	release(func(t, n int64) {
		t = max(t, now+1)
		free += n
		p.pts.ReplaceOrInsert(point{t, free})
	})
}

// fit returns the earliest time ≥ now at which n processors stay free for d
// seconds. The last point always has the whole machine free.
func (p *profile) fit(n, d int64) int64 {
	cand, found := int64(-1), false
	p.pts.Ascend(func(q point) bool {
		if cand >= 0 && q.t >= cand+d {
			found = true
			return false
		}
		if q.free >= n {
			if cand < 0 {
				cand = q.t
			}
		} else {
			cand = -1
		}
		return true
	})
	_ = found
	return cand
}

// allocate takes n processors over [t, t+d).
func (p *profile) allocate(t, d, n int64) {
	p.split(t)
	p.split(t + d)
	p.buf = p.buf[:0]
	p.pts.AscendRange(point{t: t}, point{t: t + d}, func(q point) bool {
		p.buf = append(p.buf, q)
		return true
	})
	for _, q := range p.buf {
		q.free -= n
		p.pts.ReplaceOrInsert(q)
	}
}

// split makes sure a point exists at t (t ≥ the first point).
func (p *profile) split(t int64) {
	if _, ok := p.pts.Get(point{t: t}); ok {
		return
	}
	var prev point
	p.pts.DescendLessOrEqual(point{t: t}, func(q point) bool { prev = q; return false })
	p.pts.ReplaceOrInsert(point{t, prev.free})
}
