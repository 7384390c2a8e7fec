package sched

import (
	"math"
	"slices"
)

// SJBF (EASY++'s backfilling order, EASYScheduler{Backfill:
// ByPrediction}) walks the waiting jobs by prediction (Sim.waitSJ), which
// costs it an insertion and a deletion in that ordered set per job. Many
// jobs start at the pass of their arrival (those that wait 0 s), so an
// arrival joins the set only at the end of the next full SJBF pass, if it
// still waits (Sim.sjFrom, sjNew); the walk merges the arrivals not in
// the set yet into its own.

// backfillShort is backfillFrom for SJBF (b = ByPrediction): it starts
// the other waiting jobs that do not delay h, visited by prediction,
// among those that arrived at or after seq from (0: all).
func (s *Sim) backfillShort(h *Job, e EASYScheduler, shadow, extra, from int64) {
	s.buf = s.buf[:0]
	free := s.free
	tie := false // as in backfillFrom
	// An SJBF walk over all: the arrivals from sjFrom on by prediction,
	// and top, the first arrival after them (-1: not that walk).
	var fresh []*Job
	top := int64(-1)
	// visit is backfillFrom's test of a job, written again (inlined) here.
	visit := func(k *Job) bool {
		if k == h || k.n > free {
			return true
		}
		viaTime := s.now+k.p <= shadow && (!e.EstimateSafe || s.now+k.e <= shadow)
		switch {
		case viaTime:
			tie = tie || s.now+k.p == shadow
		case k.n <= extra:
			tie = tie || s.now+k.p <= shadow
			extra -= k.n
		default:
			return true
		}
		free -= k.n
		s.buf = append(s.buf, k)
		return free > 0
	}
	switch {
	case free <= 0:
	case from == 0:
		// The walk goes over the set's chunks itself, visit inlined, and
		// skips a chunk whose jobs are all too large, or too large for
		// the extra processors and too long to end by the shadow
		// (jobSet.low; a skipped job would fail visit's tests, which
		// only get stricter during the walk). The arrivals not in the
		// set yet (sjFrom) are merged in: they arrived after its jobs,
		// so one of them goes before a set job if its prediction is
		// shorter. Those still waiting after the starts join the set.
		if s.waitSJ == nil {
			s.byPrediction()
		}
		t := s.waitSJ
		fresh, top = s.fresh[:0], s.seq
		if len(s.sjNew) > 0 { // (without the call when none came)
			fresh = s.freshShort(s.sjNew)
		}
		fi, next := 0, never // fresh[fi:] not visited yet, next fresh[fi]'s prediction
		if len(fresh) > 0 {
			next = fresh[0].p
		}
	short:
		for ci, c := range t.chunks {
			if lo := t.low[ci]; len(c) == 0 || lo > free || s.now+c[0].key > shadow && lo > extra {
				continue
			}
			low := int64(math.MaxInt64) // the chunk's jobs left waiting
			for i := 0; ; i++ {
				if i, low = nextFit(c, i, free, low); i == len(c) {
					break
				}
				k := c[i]
				if k.key > next { // fresh ones go first
					for ; fi < len(fresh) && fresh[fi].p < k.key; fi++ {
						if !visit(fresh[fi]) {
							break short
						}
					}
					next = never
					if fi < len(fresh) {
						next = fresh[fi].p
					}
				}
				// visit written out, without its call: a walk's most
				// visited jobs are these (k fitted at nextFit, but the
				// arrivals merged in since may have taken processors).
				if k == h || k.n > free {
					low = min(low, k.n)
					continue
				}
				switch now := s.now; {
				case now+k.p <= shadow && (!e.EstimateSafe || now+k.e <= shadow):
					tie = tie || now+k.p == shadow
				case k.n <= extra:
					tie = tie || now+k.p <= shadow
					extra -= k.n
				default:
					low = min(low, k.n)
					continue
				}
				free -= k.n
				s.buf = append(s.buf, k)
				if free <= 0 {
					break short
				}
			}
			t.low[ci] = low
		}
		for ; fi < len(fresh); fi++ {
			if !visit(fresh[fi]) {
				break
			}
		}
	case s.waitSJ != nil && s.sjFrom <= from:
		// Only the arrivals since the last pass, at the end of sjNew,
		// in the set's order.
		i := len(s.sjNew)
		for i > 0 && s.sjNew[i-1].seq >= from {
			i--
		}
		if i < len(s.sjNew) {
			fresh := s.freshShort(s.sjNew[i:])
			for _, k := range fresh {
				if !visit(k) {
					break
				}
			}
			s.fresh = fresh[:0]
		}
	default:
		s.visitBackfill(e, ByPrediction, from, visit, nil)
	}
	// Most walks choose none (on SDSC-BLUE at least 63%: 182 k starts
	// over 494 k walks): startBackfills's result then without its call.
	seen, epoch := s.seq, s.epoch
	if len(s.buf) > 0 {
		seen, epoch = s.startBackfills(s.buf, false)
	}
	if top >= 0 {
		for _, j := range fresh {
			if j.state == waiting {
				s.waitSJ.ReplaceOrInsert(j)
			}
		}
		// The arrivals during the starts (an observer's Submit) are
		// still to join; none if seq has not moved (each newcomer's is
		// below it).
		k := 0
		for i := 0; s.seq != top && i < len(s.sjNew); i++ {
			if a := s.sjNew[i]; a.seq >= top {
				s.sjNew[k] = a
				k++
			}
		}
		// Dropped by a loop: they are few, and clear's call of
		// memclrHasPointers costs about 90 instructions however few.
		for i := k; i < len(s.sjNew); i++ {
			s.sjNew[i].j = nil
		}
		s.sjFrom, s.sjNew, s.fresh = top, s.sjNew[:k], fresh[:0]
	}
	// Field by field, all nine of easyMemo's (a field added there must be
	// set here): a literal is built on the stack and copied over, through
	// wbMove, 42 instructions a pass against about 20.
	m := &s.memo
	m.ok, m.b, m.safe, m.epoch = !tie, ByPrediction, e.EstimateSafe, epoch
	m.holder, m.free, m.shadow, m.extra, m.next = h, s.free, shadow, extra, seen
}

// nextFit returns the first position from i on in c of a job that fits
// in free processors, len(c) if none, and low lowered to the sizes of the
// jobs it passed: the SJBF walk's skip over jobs too large, in a loop of
// its own, whose few values stay in registers. The arrivals merged in
// after a passed job are visited later than their order says, which
// changes nothing: free only shrinks, so the passed job would not fit
// after them either.
func nextFit(c []*Job, i int, free, low int64) (int, int64) {
	for ; i < len(c); i++ {
		k := c[i]
		if k.n <= free {
			return i, low
		}
		low = min(low, k.n)
	}
	return i, low
}

// newcomer is an arrival not yet in waitSJ (Sim.sjNew): the job and
// its seq, for its live state may have ended and been reused since.
type newcomer struct {
	j   *Job
	seq int64
}

// joinShort adds the waiting jobs that arrived from sjFrom on (sjNew) to
// waitSJ.
func (s *Sim) joinShort() {
	for _, a := range s.sjNew {
		if a.j.seq == a.seq && a.j.state == waiting {
			s.waitSJ.ReplaceOrInsert(a.j)
		}
	}
	clear(s.sjNew)
	s.sjFrom, s.sjNew = s.seq, s.sjNew[:0]
}

// freshShort returns the jobs of as (a part of sjNew) that still wait,
// in waitSJ's order (lessShort), in s.fresh.
func (s *Sim) freshShort(as []newcomer) []*Job {
	fresh := s.fresh[:0]
	for _, a := range as {
		j := a.j
		if j.seq != a.seq || j.state != waiting {
			continue
		}
		// By insertion while few (they come in arrival order, so the
		// later of equal predictions stays after).
		i := len(fresh)
		fresh = append(fresh, j)
		if i < 16 {
			for ; i > 0 && fresh[i-1].p > j.p; i-- {
				fresh[i] = fresh[i-1]
			}
			fresh[i] = j
		}
	}
	if len(fresh) > 16 {
		sortShort(fresh)
	}
	return fresh
}

// sortShort sorts js in waitSJ's order (lessShort, a total order).
func sortShort(js []*Job) {
	slices.SortFunc(js, func(a, b *Job) int {
		if lessShort(a, b) {
			return -1
		}
		return 1
	})
}
