package sched

import "github.com/google/btree"

// profile is the free-processor profile of conservative backfilling: a
// step function kept as points (t, free) in a B-tree ordered by t, free
// holding from t to the next point; the last point extends forever. Points
// are pointers so that allocating processors changes free in place; they
// are recycled between re-plans.
type profile struct {
	pts  *btree.BTreeG[*point]
	pool []*point
	used int
	lo   point // scratch search keys, so that lookups do not allocate
	hi   point
}

type point struct{ t, free int64 }

func lessPoint(a, b *point) bool { return a.t < b.t }

func (p *profile) newPoint(t, free int64) *point {
	if p.used == len(p.pool) {
		p.pool = append(p.pool, new(point))
	}
	q := p.pool[p.used]
	p.used++
	q.t, q.free = t, free
	return q
}

// reset makes the profile: free processors now, plus each running job's
// processors released at its predicted end (clamped to after now: a stale
// prediction still holds its processors, A3). ends must be ascending.
func (p *profile) reset(now, free int64, release func(yield func(t, n int64))) {
	if p.pts == nil {
		p.pts = btree.NewG(32, lessPoint)
	}
	p.pts.Clear(true)
	p.used = 0
	last := p.newPoint(now, free)
	p.pts.ReplaceOrInsert(last)
	release(func(t, n int64) {
		t = max(t, now+1)
		free += n
		if t == last.t {
			last.free = free
			return
		}
		last = p.newPoint(t, free)
		p.pts.ReplaceOrInsert(last)
	})
}

// fit returns the earliest time ≥ now at which n processors stay free for d
// seconds. The last point always has the whole machine free, so a
// candidate still open at the end fits.
func (p *profile) fit(n, d int64) int64 {
	cand := int64(-1)
	p.pts.Ascend(func(q *point) bool {
		if cand >= 0 && q.t >= cand+d {
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
	return cand
}

// allocate takes n processors over [t, t+d).
func (p *profile) allocate(t, d, n int64) {
	p.split(t)
	p.split(t + d)
	p.lo.t, p.hi.t = t, t+d
	p.pts.AscendRange(&p.lo, &p.hi, func(q *point) bool {
		q.free -= n
		return true
	})
}

// split makes sure a point exists at t (t ≥ the first point).
func (p *profile) split(t int64) {
	var prev *point
	p.lo.t = t
	p.pts.DescendLessOrEqual(&p.lo, func(q *point) bool { prev = q; return false })
	if prev.t != t {
		p.pts.ReplaceOrInsert(p.newPoint(t, prev.free))
	}
}
