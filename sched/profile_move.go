package sched

import "slices"

// move moves a slot of n processors from [r, r+d) to [t, t+d) that
// overlaps it (t < r < t+d): what Allocate(t, r-t, n) then
// Allocate(t+d, r-t, -n) do, with one search from t on and one shift of
// the tail after r+d, not two. Conservative backfilling moves a job so
// 0.9 M times on SDSC-BLUE; the first Allocate mostly deletes the point
// at r and the second inserts one at t+d and deletes the one at r+d, each
// shifting every point after. Here the points between the four ends
// (the slot's part before r, the part both slots hold, the part after
// t+d) are moved by copy, each by its own net shift, and the tail by the
// sum, once.
//
// It returns the most processors free over the part given back, [t+d,
// r+d), after the move (shift's).
func (p *Profile) move(t, r, d, n int64) int64 {
	if len(p.pts) == 0 || t < p.pts[0].t {
		p.Allocate(t, r-t, n)
		p.Allocate(t+d, r-t, -n)
		return p.most(t+d, r+d)
	}
	return p.moveAt(p.search(t), t, r, d, n)
}

// moveAt is move for a t at or after the first point, i being the index
// of the first point at or after t (fitBefore's, which spares the
// search).
func (p *Profile) moveAt(i int, t, r, d, n int64) int64 { return p.shift(i, t, r, t+d, r+d, n) }

// shift takes n processors over [t, r) and gives n back over [e, f),
// t < r < e < f, t at or after the first point and i the index of the
// first point at or after t: a move into an overlapping slot (moveAt)
// or, with r and e swapped, into one that ends before the old one
// begins (t+d < r: what Allocate(r, d, -n) then Allocate(t, d, n) do).
//
// It returns the most processors free over [e, f) after the move: the
// points there are at hand, and conservative backfilling bounds by it
// the jobs that the slot given back can let move (consLoop.gave).
func (p *Profile) shift(i int, t, r, e, f, n int64) (most int64) {
	pts := p.pts
	size := len(pts)
	// The four ends: their index (the first point at or after), whether a
	// point is there, and the free there before the move.
	// (i = 0 only with a point at t, since t ≥ pts[0].t)
	hasT, vt := endAt(pts, i, t)
	a := i + b2i(hasT) // pts[a:j] lie in (t, r): n fewer free
	j := p.searchNear(a, r)
	hasR, vr := endAt(pts, j, r)
	m := j + b2i(hasR) // pts[m:k] lie in (r, e): unchanged
	k := p.searchNear(m, e)
	hasE, ve := endAt(pts, k, e)
	b := k + b2i(hasE) // pts[b:l] lie in (e, f): n more free
	l := p.searchNear(b, f)
	hasF, vf := endAt(pts, l, f)
	tail := l + b2i(hasF)
	// A point at an end stays (or comes) only if the free changes there.
	keepT := i == 0 || pts[i-1].free != vt-n
	lastA := vt - n
	if j > a {
		lastA = pts[j-1].free - n
	}
	keepR := vr != lastA
	lastM := vr
	if k > m {
		lastM = pts[k-1].free
	}
	keepE := ve+n != lastM
	lastB := ve + n
	if l > b {
		lastB = pts[l-1].free + n
	}
	keepF := vf != lastB
	if j == a && l == b {
		// No point inside the parts that change, (t, r) and (e, f)
		// (most moves on SDSC-BLUE: the slot's part taken and its part
		// given back each hold a step or two): only the four ends are
		// written, after the points between r and e (pts[m:k]) and the
		// tail have moved, and the most free over [e, f) is the free at e.
		w := i + b2i(keepT) + b2i(keepR)           // where pts[m:k] go
		end := w + k - m + b2i(keepE) + b2i(keepF) // where the tail goes
		if end > tail {
			pts = slices.Grow(pts, end-tail)[:size+end-tail]
			copy(pts[end:], pts[tail:size])
		}
		if w != m {
			copy(pts[w:], pts[m:k])
		}
		if end < tail {
			copy(pts[end:], pts[tail:size])
		}
		if keepT {
			pts[i] = point{t, vt - n}
		}
		if keepR {
			pts[w-1] = point{r, vr}
		}
		x := w + k - m
		if keepE {
			pts[x] = point{e, ve + n}
			x++
		}
		if keepF {
			pts[x] = point{f, vf}
		}
		p.pts = pts[:size+end-tail]
		return ve + n
	}
	sA := b2i(keepT) - b2i(hasT)
	sM := sA + b2i(keepR) - b2i(hasR)
	sB := sM + b2i(keepE) - b2i(hasE)
	sT := sB + b2i(keepF) - b2i(hasF)
	if sT > 0 {
		pts = slices.Grow(pts, sT)[:size+sT]
	}
	// Neighbouring shifts differ by at most one, and by minus one only
	// across a point that goes: the segments that move left, moved left
	// to right, and then those that move right, right to left, never
	// overwrite a point still to be read. The short ones that change (a
	// point or none, mostly) by a loop, the others by copy.
	if sA < 0 {
		addDown(pts, a, j, sA, -n)
	}
	if sM < 0 && k > m {
		copy(pts[m+sM:], pts[m:k])
	}
	if sB < 0 {
		addDown(pts, b, l, sB, n)
	}
	if sT != 0 && size > tail {
		copy(pts[tail+sT:], pts[tail:size])
	}
	if sB >= 0 {
		addUp(pts, b, l, sB, n)
	}
	if sM > 0 && k > m {
		copy(pts[m+sM:], pts[m:k])
	}
	if sA >= 0 {
		addUp(pts, a, j, sA, -n)
	}
	if keepT {
		pts[i] = point{t, vt - n}
	}
	if keepR {
		pts[j+sA] = point{r, vr}
	}
	if keepE {
		pts[k+sM] = point{e, ve + n}
	}
	if keepF {
		pts[l+sB] = point{f, vf}
	}
	p.pts = pts[:size+sT]
	most = ve + n // the free from e on, a point there or not
	for _, q := range pts[b+sB : l+sB] {
		most = max(most, q.free)
	}
	return most
}

// swap takes n processors over [t, r) and gives n back over [r, f), t <
// r < f, t at or after the first point and i the index of the first
// point at or after t: a move into the slot that ends where the old one
// begins (t+d = r, which shift cannot take: its ends r and e would be
// one), as Allocate(r, d, -n) then Allocate(t, d, n) do, with one walk
// and one shift of the tail instead of two searches, two walks and two
// shifts each. It returns the most processors free over [r, f) after it,
// as shift does. 29.6 k moves on SDSC-BLUE.
func (p *Profile) swap(i int, t, r, f, n int64) (most int64) {
	pts := p.pts
	size := len(pts)
	hasT, vt := endAt(pts, i, t)
	a := i + b2i(hasT) // pts[a:j] lie in (t, r): n fewer free
	j := p.searchNear(a, r)
	hasR, vr := endAt(pts, j, r)
	b := j + b2i(hasR) // pts[b:l] lie in (r, f): n more free
	l := p.searchNear(b, f)
	hasF, vf := endAt(pts, l, f)
	tail := l + b2i(hasF)
	keepT := i == 0 || pts[i-1].free != vt-n
	lastA := vt - n
	if j > a {
		lastA = pts[j-1].free - n
	}
	keepR := vr+n != lastA
	lastB := vr + n
	if l > b {
		lastB = pts[l-1].free + n
	}
	keepF := vf != lastB
	sA := b2i(keepT) - b2i(hasT)
	sB := sA + b2i(keepR) - b2i(hasR)
	sT := sB + b2i(keepF) - b2i(hasF)
	if sT > 0 {
		pts = slices.Grow(pts, sT)[:size+sT]
	}
	// as in shift: the segments that move left, left to right, then
	// the tail, then those that move right, right to left
	if sA < 0 {
		addDown(pts, a, j, sA, -n)
	}
	if sB < 0 {
		addDown(pts, b, l, sB, n)
	}
	if sT != 0 && size > tail {
		copy(pts[tail+sT:], pts[tail:size])
	}
	if sB >= 0 {
		addUp(pts, b, l, sB, n)
	}
	if sA >= 0 {
		addUp(pts, a, j, sA, -n)
	}
	if keepT {
		pts[i] = point{t, vt - n}
	}
	if keepR {
		pts[j+sA] = point{r, vr + n}
	}
	if keepF {
		pts[l+sB] = point{f, vf}
	}
	p.pts = pts[:size+sT]
	most = vr + n // the free from r on, a point there or not
	for _, q := range pts[b+sB : l+sB] {
		most = max(most, q.free)
	}
	return most
}

// endAt is whether pts has a point at t, x being the index of the first
// at or after it, and the free processors at t before the move.
func endAt(pts []point, x int, t int64) (has bool, free int64) {
	if x < len(pts) && pts[x].t == t {
		return true, pts[x].free
	}
	return false, pts[x-1].free
}

// addDown moves pts[lo:hi] by s ≤ 0 and adds n to their free, first to
// last.
func addDown(pts []point, lo, hi, s int, n int64) {
	for x := lo; x < hi; x++ {
		pts[x+s] = point{pts[x].t, pts[x].free + n}
	}
}

// addUp moves pts[lo:hi] by s ≥ 0 and adds n to their free, last to
// first.
func addUp(pts []point, lo, hi, s int, n int64) {
	for x := hi - 1; x >= lo; x-- {
		pts[x+s] = point{pts[x].t, pts[x].free + n}
	}
}
