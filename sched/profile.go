package sched

import (
	"cmp"
	"slices"
)

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
// B-tree's per-point callbacks. Reset keeps the slice, so re-planning does
// not allocate.
//
// The zero Profile is empty until Reset: Fit reports false, Release and
// Allocate do nothing. A Profile is not safe for concurrent use.
type Profile struct {
	pts []point
	// allocateAll's scratch, kept so that re-planning does not allocate
	steps []point // (t, change of free at t)
	spare []point // the next pts
	// memo is conservative backfilling's memory between passes (nil
	// elsewhere): Reset keeps it.
	memo *consMemo
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
//
// A point at t or t+d that no longer changes the free count goes: a
// slot given back mostly leaves both, and every later scan would walk
// them.
func (p *Profile) Allocate(t, d, n int64) {
	end := t + d
	if len(p.pts) == 0 || d <= 0 || end <= p.pts[0].t {
		return
	}
	// One search for t, one for end from there, and the points rewritten
	// in one walk and one shift of the tail: splitting at t and end and
	// deleting the points left equal took two full searches and up to
	// four shifts (conservative backfilling moves a job by an Allocate
	// back and one forward).
	pts := p.pts
	if t <= pts[0].t {
		// A slot from now (a start, a move to now, the rebase's gain
		// from now): every point before end changes, so the walk that
		// changes them finds end, without a search for it (a probe of 8
		// points and mostly a binary search past them).
		j := 1
		for ; j < len(pts) && pts[j].t < end; j++ {
			pts[j].free -= n
		}
		pts[0].free -= n
		hasE := j < len(pts) && pts[j].t == end
		last := pts[j-1].free // the free just before end, after
		ve := last + n        // the free at end, before
		if hasE {
			ve = pts[j].free
		}
		switch {
		case ve == last && hasE: // no change at end: its point goes
			pts = append(pts[:j], pts[j+1:]...)
		case ve != last && !hasE: // a change at end: a point there
			pts = append(pts, point{})
			copy(pts[j+1:], pts[j:])
			pts[j] = point{end, ve}
		}
		p.pts = pts
		return
	}
	i := p.search(t)
	j := p.searchNear(i, end) // pts[i:j] lie in [t, end)
	hasT := i < len(pts) && pts[i].t == t
	hasE := j < len(pts) && pts[j].t == end
	vt, ve := pts[max(i-1, 0)].free, pts[j-1].free // before t, at end
	a := i                                         // pts[a:j] lie in (t, end)
	if hasT {
		vt, a = pts[i].free, i+1
	}
	if hasE {
		ve = pts[j].free
	}
	last := vt - n // the free just before end, after
	if j > a {
		last = pts[j-1].free - n
	}
	keepT := i == 0 || pts[i-1].free != vt-n
	keepE := ve != last
	s1 := b2i(keepT) - b2i(hasT)      // the shift of pts[a:j]
	s2 := s1 + b2i(keepE) - b2i(hasE) // the shift of the tail
	tail := j + b2i(hasE)
	size := len(pts)
	if s2 > 0 {
		pts = slices.Grow(pts, s2)[:size+s2]
		copy(pts[tail+s2:], pts[tail:size])
	}
	switch s1 {
	case 1:
		for k := j - 1; k >= a; k-- {
			pts[k+1] = point{pts[k].t, pts[k].free - n}
		}
	case 0:
		for k := a; k < j; k++ {
			pts[k].free -= n
		}
	default:
		for k := a; k < j; k++ {
			pts[k-1] = point{pts[k].t, pts[k].free - n}
		}
	}
	if keepT {
		pts[i] = point{t, vt - n}
	}
	if keepE {
		pts[j+s1] = point{end, ve}
	}
	if s2 < 0 {
		copy(pts[tail+s2:], pts[tail:size])
		pts = pts[:size+s2]
	}
	p.pts = pts
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// searchFrom returns the index of the first point at or after t, which
// is i or after.
func (p *Profile) searchFrom(i int, t int64) int {
	lo, hi := i, len(p.pts)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if p.pts[m].t < t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// searchNear is searchFrom for a t mostly a few points after i: those
// are tried in turn before the binary search.
func (p *Profile) searchNear(i int, t int64) int {
	for lim := min(i+8, len(p.pts)); i < lim; i++ {
		if p.pts[i].t >= t {
			return i
		}
	}
	return p.searchFrom(i, t)
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
func (p *Profile) search(t int64) int { return p.searchFrom(0, t) }

// fitOwn is Fit for a job that holds the slot of n processors over [r,
// r+d) in the profile, as if it gave the slot back first: what
// Allocate(r, d, -n) then Fit(n, d, from) return, without changing the
// profile (the slot's ends need not be points: the scan splits the steps
// there). r must be at or after the first point. The caller may know that
// no start from until to r fits (until never if not): a fit that would
// start there returns r. With until ≤ r no point of the slot may be
// overdrawn (free < 0): conservative backfilling gives a bound only for a
// job whose slot is not (consOverdrawn marks the others).
func (p *Profile) fitOwn(n, d, from, until, r int64) (int64, bool) {
	if len(p.pts) == 0 {
		return 0, false
	}
	d = max(d, 1)
	pts, off := p.pts, 0 // pts[k] is p.pts[off+k]
	if from > pts[0].t {
		off = p.search(from+1) - 1
		pts = pts[off:]
	}
	if from >= until {
		return r, true
	}
	end := r + d
	cand, open := int64(0), false
	// the steps that end by r, one piece each: most of a scan, in two
	// tight loops that alternate, one while no start is open, one while
	// one is. lim bounds them: the last point, or, when until is past r,
	// the first point whose step does not end by r. With until ≤ r, a
	// step of fewer than n free that runs past r needs no check (its
	// piece from r on starts at or after until, where the scan returns r
	// unless open), so the closed loop needs none against r; the others
	// check.
	lim := len(pts) - 1
	if until > r && lim > 0 && pts[lim].t > r {
		lim = p.search(r+1) - off - 1
	}
	// ps is the steps the loops walk and nx their next points (nx[u] is
	// pts[u+1]), both of length lim, and u is unsigned: the loops' index
	// checks (u < len, and u >= len between the loops, not ==) are then
	// their bounds checks, which the compiler drops; i is u after them
	lim = max(lim, 0) // (negative when r is before from: no step to walk)
	ps, nx := pts[:lim], pts[1:lim+1]
	nx = nx[:uint(len(ps))]
	var u uint
	for u < uint(len(ps)) {
		// q.t < from only for the first point
		for u < uint(len(ps)) && ps[u].free < n && ps[u].t < until {
			u++
		}
		if u >= uint(len(ps)) || nx[u].t > r {
			break
		}
		if ps[u].t >= until { // with from < until: max(q.t, from) ≥ until
			return r, true
		}
		cand, open = max(ps[u].t, from), true
		for u++; u < uint(len(ps)) && nx[u].t <= r && ps[u].free >= n; u++ {
			if ps[u].t >= cand+d {
				return cand, true
			}
		}
		if u >= uint(len(ps)) || nx[u].t > r {
			break
		}
		if ps[u].t >= cand+d {
			return cand, true
		}
		open = false
		u++
	}
	i := int(u)
	if until <= r {
		// Step i runs past r (or is the last), and the slot is not
		// overdrawn: a start open at i's end reaches r and fits, the
		// slot's n more free carrying it on; one not open by r comes at
		// or after until: no need of the general walk below.
		q := pts[i]
		switch {
		case open:
			if q.t >= cand+d || q.t >= r || q.free >= n {
				return cand, true
			}
		case q.free >= n && max(q.t, from) < until:
			return max(q.t, from), true
		}
		return r, true
	}
	for ; i < len(pts); i++ {
		q := pts[i]
		next := never
		if i+1 < len(pts) {
			next = pts[i+1].t
		}
		// the step [q.t, next), in up to three pieces: before the slot,
		// in it (n more free), after it
		for a := q.t; a < next; {
			b, free := next, q.free
			switch {
			case a < r:
				b = min(next, r)
			case a < end:
				b, free = min(next, end), free+n
			}
			t := max(a, from)
			switch {
			case open && t >= cand+d:
				return cand, true
			case !open && t >= until: // any fit from here starts at until or later
				return r, true
			}
			if free >= n {
				if !open {
					cand, open = t, true
				}
			} else {
				open = false
			}
			a = b
		}
	}
	if !open {
		return 0, false
	}
	return cand, true
}

// fitFresh is fitOwn(n, d, now, never, r) for a job placed again from
// now (conservative backfilling's fresh entries), with t's index as
// fitBefore gives it (-1 when it does not). A slot from now on that is
// overdrawn nowhere fits where it is: at now that is the first start,
// and after now the first fit is fitBefore's, before r or r, whose
// bounded scan costs less than fitOwn's walk past r (and gives the
// move t's index). Any other slot (overdrawn, or before now) is given
// back and the job's slot taken at its fit (0 if none) at once: at is
// then taken, and the profile holds the job where it goes (as it was,
// a step function having one form, when that is r). fitOwn's walk past r
// and the move's two Allocates cost more than one Allocate and
// fitTake's walk (27 k such placements on SDSC-BLUE, most moved later).
func (p *Profile) fitFresh(n, d, now, r int64) (t int64, at int, fits bool) {
	if r < now || len(p.pts) == 0 || r < p.pts[0].t || p.least(r, r+d) < 0 {
		p.Allocate(r, d, -n)
		t, fits = p.fitTake(n, d, now)
		return t, taken, fits
	}
	if r == now {
		return r, -1, true
	}
	t, at = p.fitBefore(n, d, now, r, r)
	return t, at, true
}

// taken is fitFresh's index of a placement it made itself.
const taken = -2

// fitBefore is fitOwn with a bound (until ≤ r, the slot overdrawn
// nowhere), which always fits: conservative backfilling's scan of a
// settled job's starts that a gain can have opened. Its own function,
// without fitOwn's walk past r and the state that needs, so that the
// loops keep their values in registers. For a start t before r it
// returns as well the index of the first point at or after t, which
// spares move its search. When its first window already proves every
// start blocked (r, the window's last step of fewer than n running to
// until or past it), it returns the index of the point after that step
// (≥ 1), else 0 with r: the step blocks other jobs too (blocker).
func (p *Profile) fitBefore(n, d, from, until, r int64) (int64, int) {
	if from >= until {
		return r, 0
	}
	// The first window, read from its end back: its last step of fewer
	// than n blocks every start up to that step's end, so the walk below
	// begins there, and the steps before, which it would read one by one,
	// are not (that step is mostly the window's last).
	pts := p.pts
	cand := max(from, pts[0].t)
	if cand >= until {
		return r, 0
	}
	x := p.search(min(cand+max(d, 1), r)) - 1 // the window's last step
	for x > 0 && pts[x].t > cand && pts[x].free >= n {
		x--
	}
	if pts[x].free >= n {
		return cand, x + b2i(pts[x].t < cand)
	}
	if x++; x == len(pts) || pts[x].t >= until {
		return r, x
	}
	from, pts = pts[x].t, pts[x:]
	// ps is the steps and nx their next points, as in fitOwn; a step
	// that runs past r (or the last) ends the loops, and pts[u] is then
	// that step
	ps, nx := pts[:len(pts)-1], pts[1:]
	nx = nx[:uint(len(ps))]
	var u uint
	for {
		for u < uint(len(ps)) && ps[u].free < n && ps[u].t < until {
			u++
		}
		if u >= uint(len(ps)) || nx[u].t > r {
			// closed at the step that runs past r: a start there fits
			// (the slot's n more free carry it on) if before until
			if q := pts[u]; q.free >= n && max(q.t, from) < until {
				return max(q.t, from), p.back(pts, int(u)+b2i(q.t < from), max(q.t, from))
			}
			return r, 0
		}
		if ps[u].t >= until {
			return r, 0
		}
		// Open: the window fits once a step begins at cand+d, or once
		// an open step runs past r (the next begins after r: the
		// slot's n more free carry it on), so one test of each step's
		// time.
		// c is cand's index in pts (its step's: the steps begin at or
		// after from, pts[0] being at from), for the fit's index
		c := u
		cand := max(ps[u].t, from)
		stop := min(cand+max(d, 1), r+1)
		for u++; u < uint(len(ps)) && ps[u].free >= n; u++ {
			if ps[u].t >= stop {
				return cand, len(p.pts) - len(pts) + int(c)
			}
		}
		// step u (no step of ps has ended after r) holds fewer than n,
		// or is the last
		if q := pts[u]; q.t >= stop {
			return cand, len(p.pts) - len(pts) + int(c)
		}
		if u >= uint(len(ps)) || nx[u].t > r {
			// the window reaches r, or the last step holds n
			if q := pts[u]; q.t >= r || q.free >= n {
				return cand, len(p.pts) - len(pts) + int(c)
			}
			return r, 0
		}
		u++
	}
}

// back returns the index in p.pts of the first point at or after t, pts
// being a suffix of p.pts whose u-th point is at or after t, a few
// after the one sought (fitBefore's fit and the step where it ended).
func (p *Profile) back(pts []point, u int, t int64) int {
	for u > 0 && pts[u-1].t >= t {
		u--
	}
	return len(p.pts) - len(pts) + u
}

// allocateAll takes the slots (t, d, n), as Allocate(t, d, n) for each
// would, at once: a sort of their 2·len ends and one merge with the
// points, instead of two binary searches, two inserts and a walk per slot.
// Every slot must start at or after the first point and have d ≥ 1. A
// point whose free equals the one before is left out.
func (p *Profile) allocateAll(slots []slot) {
	if len(p.pts) == 0 || len(slots) == 0 {
		return
	}
	st := p.steps[:0]
	for _, s := range slots {
		st = append(st, point{s.t, -s.n}, point{s.t + s.d, s.n})
	}
	slices.SortFunc(st, func(a, b point) int { return cmp.Compare(a.t, b.t) })
	out := p.spare[:0]
	pts := p.pts
	i, k := 0, 0
	base, sum := int64(0), int64(0) // the free of the last point passed, the changes up to now
	for i < len(pts) || k < len(st) {
		var t int64
		switch {
		case k == len(st) || i < len(pts) && pts[i].t <= st[k].t:
			t = pts[i].t
		default:
			t = st[k].t
		}
		for i < len(pts) && pts[i].t == t {
			base = pts[i].free
			i++
		}
		for k < len(st) && st[k].t == t {
			sum += st[k].free
			k++
		}
		if v := base + sum; len(out) == 0 || out[len(out)-1].free != v {
			out = append(out, point{t, v})
		}
	}
	p.spare, p.pts, p.steps = pts[:0], out, st[:0]
}

// rebaseOwn sets the profile to was + diff from now on, in was itself,
// which becomes the profile (no copy): was is a profile starting at now
// (fromNow: conservative backfilling's last final profile, which it no
// longer needs once rebased), nowhere overdrawn (the memo keeps only an
// ok pass's final profile, which is: TestConservativeOkFinalSoundRapid),
// diff the running jobs' change since was was planned (consDiff: steps
// from now, a point per change, the first at now), both with no two
// neighbours of equal free, as Allocate keeps them (nor has the result).
// It returns the span of the times at which diff is positive (where the
// profile gained on was), and whether the profile is nowhere overdrawn
// (free ≥ 0 throughout): as was is, only the times where diff is
// negative can be, and only those are read.
//
// diff is mostly none, or a job's processors over [now, its planned
// end) after it ended early: it is added to was a range at a time. The
// buffer the profile had is left to the caller.
func (p *Profile) rebaseOwn(was, diff []point) (gain span, sound bool) {
	gain, sound = noSpan, true
	p.pts = was
	for e, q := range diff {
		if q.free == 0 {
			continue
		}
		if e+1 < len(diff) {
			hi := diff[e+1].t
			p.Allocate(q.t, hi-q.t, -q.free)
			if q.free > 0 {
				gain = gain.join(span{q.t, hi})
			}
			continue
		}
		for f := p.split(q.t); f < len(p.pts); f++ { // q.free from q.t on
			p.pts[f].free += q.free
		}
		if f := p.search(q.t); f > 0 && p.pts[f].free == p.pts[f-1].free {
			p.pts = slices.Delete(p.pts, f, f+1)
		}
		if q.free > 0 {
			gain = gain.join(span{q.t, never})
		}
	}
	for e, q := range diff {
		if q.free < 0 {
			hi := int64(never)
			if e+1 < len(diff) {
				hi = diff[e+1].t
			}
			if p.least(q.t, hi) < 0 {
				sound = false
				break
			}
		}
	}
	p.steps = diff[:0]
	return gain, sound
}

// fromNow is pts from now on in place (pts starts at or before now): a
// point at now with the free processors then, and the points after it,
// the slice starting at the point it rewrites.
func fromNow(pts []point, now int64) []point {
	i, v := stepAt(pts, now)
	pts = pts[i-1:]
	pts[0] = point{now, v}
	return pts
}

// stepAt returns the index of the first point of pts after now and the
// free processors at now (pts starts at or before now).
func stepAt(pts []point, now int64) (int, int64) {
	k, v := 0, int64(0)
	for ; k < len(pts) && pts[k].t <= now; k++ {
		v = pts[k].free
	}
	return k, v
}

// least returns the fewest processors free at a time in [t, end).
func (p *Profile) least(t, end int64) int64 {
	i := max(p.search(t+1)-1, 0)
	v := p.pts[i].free
	for i++; i < len(p.pts) && p.pts[i].t < end; i++ {
		v = min(v, p.pts[i].free)
	}
	return v
}

// most returns the most processors free at a time in [t, end).
func (p *Profile) most(t, end int64) int64 {
	i := 0 // the step that holds at t: mostly the first (a gain from now)
	if len(p.pts) > 1 && t >= p.pts[1].t {
		i = p.search(t+1) - 1
	}
	v := p.pts[i].free
	for i++; i < len(p.pts) && p.pts[i].t < end; i++ {
		v = max(v, p.pts[i].free)
	}
	return v
}

// slot is a reservation for allocateAll: n processors over [t, t+d).
type slot struct{ t, d, n int64 }
