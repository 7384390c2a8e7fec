package sched

import "slices"

// coreSum is, over time, the free cores of the nodes whose segments
// (consNodes.segs) are counted, each node's clamped at 0, summed: a
// step function kept as its steps, so that conservative backfilling on
// nodes can rule out, in one walk of the steps, the starts where a job
// cannot fit whatever nodes it takes.
//
// A node gives a job at most its free cores over the window's minimum
// (a spread job: its usable cores, never more than the free ones; a job
// of shares of c > 0 cores: 1 if a share fits, so at most cores / c),
// and the sum over the nodes of each node's minimum over a window is at
// most the minimum over the window of the sum. So a start t whose
// window [t, t+d) meets a time where the sum (with the nodes without
// events, constant) is below the job's want (times c for shares of c
// cores) is a start where the exact sweep (consNodes.earliest) finds the
// job short: earliest sweeps only the starts between such windows, and
// the job's earliest start is the one the full sweep finds. What it
// lacked at the starts it did not sweep is bounded by the sum's largest
// value at a time that ruled them out (consNodes.short stays a lower
// bound of the deficit: a smaller one, so a later pass may place the job
// again where the full sweep would have kept it, and place it where it
// was).
//
// On a machine of N nodes with a deep queue the nodes' segments are about
// the job's width times the pool's profile points; the sum has as many
// steps as the pool's profile. A job's search costs a walk of those
// steps, and the exact sweep only over the starts the sum leaves.
type coreSum struct {
	t  []int64 // the steps' times, ascending
	d  []int64 // what the sum gains (or loses) at each
	in []bool  // node i's segments are counted
	// bad is the scratch of allowed: the segments of the sum below the
	// need, each with its value
	bad []badSeg
}

type badSeg struct{ lo, hi, v int64 }

// reset counts no node.
func (a *coreSum) reset() {
	a.t, a.d = a.t[:0], a.d[:0]
	clear(a.in)
}

// step adds d to the sum from t on.
func (a *coreSum) step(t, d int64) {
	if d == 0 {
		return
	}
	k, found := slices.BinarySearch(a.t, t)
	if found {
		a.d[k] += d
		return
	}
	a.t = slices.Insert(a.t, k, t)
	a.d = slices.Insert(a.d, k, d)
}

// count adds (sign 1) or takes away (−1) a node's segments sg, its free
// cores clamped at 0.
func (a *coreSum) count(sg *nodeSegs, sign int64) {
	var prev int64
	for k, t := range sg.t {
		v := max(sg.v[k*sg.nc], 0)
		a.step(t, sign*(v-prev))
		prev = v
	}
}

// allowed appends to out the runs [lo, hi] of starts in [from, h] whose
// window of d seconds meets no time where base plus the sum is below
// need, and returns them with the scratch of the segments below need
// that ruled starts out (a.bad). It first folds the steps by now into
// one and drops the steps of 0, so that the walk stays as long as the
// sum's steps from now on.
func (a *coreSum) allowed(now, base, need, d, from, h int64, out []span) []span {
	// fold and compact: the steps by now into one, at the last of them
	w := 0
	var acc int64
	for k := range a.t {
		if a.t[k] <= now {
			acc += a.d[k]
			if k+1 < len(a.t) && a.t[k+1] <= now {
				continue
			}
			a.t[w], a.d[w] = a.t[k], acc
			if acc != 0 {
				w++
			}
			continue
		}
		if a.d[k] != 0 {
			a.t[w], a.d[w] = a.t[k], a.d[k]
			w++
		}
	}
	a.t, a.d = a.t[:w], a.d[:w]
	a.bad = a.bad[:0]
	next := from // the first start not ruled out yet
	v := base
	// segment k from a.t[k] (−1: before the first step, base alone)
	for k := -1; k < len(a.t) && next <= h; k++ {
		lo, hi := now, never
		if k >= 0 {
			v += a.d[k]
			lo = a.t[k]
		}
		if k+1 < len(a.t) {
			hi = a.t[k+1]
		}
		if v >= need {
			continue
		}
		if hi <= from || hi <= next {
			continue // rules out no start from next on
		}
		if lo-d+1 > h {
			break
		}
		a.bad = append(a.bad, badSeg{lo, hi, v})
		if first := lo - d + 1; first > next {
			out = append(out, span{next, first - 1})
		}
		next = hi
	}
	if next <= h && next < never {
		out = append(out, span{next, h})
	}
	return out
}

// badMost is the largest value of the sum at a time below the need that
// ruled out a start before t (every start from allowed's from when t is
// never).
func (a *coreSum) badMost(d, t int64) int64 {
	most := int64(-1)
	for _, b := range a.bad {
		if t != never && b.lo-d+1 >= t {
			break
		}
		most = max(most, b.v)
	}
	return most
}
