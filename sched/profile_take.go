package sched

// fitTake is Fit(n, d, from) then Allocate(t, d, n) at the fit t (0 when
// none, as the two calls would), for a d ≥ 1: conservative backfilling
// places so every arrival it plans alone (conservativeArrivals) and every
// job its pass places from now with nothing known. Fit's walk ends at the
// first point at or after the fit's end and passed the point at the fit's
// start, so the allocation needs neither of Allocate's two searches (170 k
// arrivals on SDSC-BLUE, a binary search and a probe of up to 8 points
// each, mostly past it). From a from after the first point (no caller's)
// it is the two calls, as from a d below 1 (which Allocate ignores).
func (p *Profile) fitTake(n, d, from int64) (int64, bool) {
	if d < 1 || len(p.pts) == 0 || from > p.pts[0].t {
		t, fits := p.Fit(n, d, from)
		p.Allocate(t, d, n)
		return t, fits
	}
	pts := p.pts
	// Fit's walk from the first point (every start is a point's time),
	// in two loops that alternate, one over the steps of fewer than n,
	// one over a window open at c until a step begins at its end: c is
	// the start's index, j the first point at or after its end
	c, j := 0, 0
	end := int64(0)
	for {
		for j < len(pts) && pts[j].free < n {
			j++
		}
		if j == len(pts) {
			p.Allocate(0, d, n)
			return 0, false
		}
		c, end = j, pts[j].t+d
		for j++; j < len(pts) && pts[j].t < end && pts[j].free >= n; j++ {
		}
		if j == len(pts) || pts[j].t >= end {
			break
		}
	}
	// Allocate(t, d, n) with its indices: a point at t (c), pts[c+1:j]
	// inside the slot, j the first at or after end
	t := pts[c].t
	vt := pts[c].free
	a := c + 1
	hasE := j < len(pts) && pts[j].t == end
	ve := pts[j-1].free // the free at end, before
	if hasE {
		ve = pts[j].free
	}
	last := vt - n // the free just before end, after
	if j > a {
		last = pts[j-1].free - n
	}
	keepT := c == 0 || pts[c-1].free != vt-n
	keepE := ve != last
	s1 := b2i(keepT) - 1              // the shift of pts[a:j]: 0 or -1
	s2 := s1 + b2i(keepE) - b2i(hasE) // the shift of the tail
	tail := j + b2i(hasE)
	size := len(pts)
	if s2 > 0 {
		pts = append(pts, point{})
		copy(pts[tail+1:], pts[tail:size])
	}
	if s1 == 0 {
		for k := a; k < j; k++ {
			pts[k].free -= n
		}
		pts[c].free = vt - n
	} else {
		for k := a; k < j; k++ {
			pts[k-1] = point{pts[k].t, pts[k].free - n}
		}
	}
	if keepE {
		pts[j+s1] = point{end, ve}
	}
	if s2 < 0 {
		copy(pts[tail+s2:], pts[tail:size])
		pts = pts[:size+s2]
	}
	p.pts = pts
	return t, true
}
