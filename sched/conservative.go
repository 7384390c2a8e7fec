package sched

import (
	"cmp"
	"slices"
)

// conservativeScheduler is conservative backfilling with compression
// (Mu'alem & Feitelson): every waiting job holds a reservation in the
// free-processor profile. At each pass the profile is rebuilt from the
// running jobs and all current reservations; then, in arrival order, each
// job gives up its reservation and takes the earliest slot where it fits
// for its prediction without touching anyone else's (never later than its
// old one, unless a running job outlived its prediction), and starts if
// that slot is now. New arrivals are placed after all earlier arrivals. A
// job started while an earlier arrival still waits counts as backfilled.
// Cost per pass: O(q · profile) for q waiting jobs at worst; a job that
// nothing since its last placement can have moved keeps its slot without
// a scan (consMemo).
//
// A running job that outlived its prediction frees its processors at
// now+1 in the profile (S3): the profile must not promise now processors
// that are still held. The reservation that counted on them is re-placed
// after those that still hold, unlike EASY's holder, which keeps its
// place (S3, in Corrector's doc and docs/decisions.md, says what that
// does to waits).
type conservativeScheduler struct{}

// Name implements the optional name of a Scheduler.
func (conservativeScheduler) Name() string { return "Conservative" }

// Schedule implements Scheduler.
func (conservativeScheduler) Schedule(p *Pass) {
	if p.over {
		return
	}
	p.s.consSchedule()
}

// consSchedule is conservative backfilling's pass, which Sim.pass calls
// directly.
func (s *Sim) consSchedule() {
	if s.m != nil {
		s.conservativeNodesPass()
		return
	}
	if s.conservativeQuiet() {
		return
	}
	idle := s.free == s.cfg.MachineSize
	if m := s.prof.memo; m != nil && m.ok && m.logOK && !idle {
		s.conservativePass(nil, false) // the running jobs' profile from the log
		return
	}
	s.conservativePass(s.view.Profile(), idle)
}

// conservativeQuiet is conservativePass after arrivals alone, when it
// can know that without the running jobs' profile: nothing has started,
// ended, been corrected, cancelled or re-predicted since the last pass
// (the same epoch), which moved no job (quiet) and overdrew nothing (ok),
// no reservation is due (now < minRes), the machine is busy (an idle one
// goes the general way) and every running job ends after now (one that
// outlived its prediction frees its processors at now+1, which moves
// with now). Then the running jobs' profile is the last pass's (base)
// from now on, rebase would find no change, and the profile is the last
// pass's final one from now on; it reports false, having done nothing,
// when the pass must go the general way.
func (s *Sim) conservativeQuiet() bool {
	prof := &s.prof
	m := prof.memo
	if m == nil || !m.ok || !m.quiet || s.epoch != m.epoch || s.qepoch != m.qepoch || s.now >= m.minRes || s.free == s.cfg.MachineSize {
		return false
	}
	if j, ok := s.run.Min(); !ok || j.predEnd() <= s.now {
		return false
	}
	// m.ok: final is nowhere overdrawn (consMemo.ok), no walk for an
	// overdraw. m.final from now on becomes the profile in place (no
	// copy), and the profile's buffer final's, which the pass fills at
	// its end
	pts := fromNow(m.final, s.now)
	if cap(pts)-len(pts) < slideRoom {
		pts = m.moveBack(pts)
	}
	m.final, prof.pts = prof.pts[:0], pts
	m.routes.quiet++
	s.conservativeArrivals(prof, m)
	return true
}

// consMemo is what the last conservative pass on a pool left, so that the
// next one re-places only the jobs that a change may have moved.
//
// A job settled at r (the earliest fit when it was last placed) is still
// settled at r if, since then, the profile has nowhere gained free
// processors before r, its own slot [r, r+d) is not overdrawn (free ≥ 0
// there, so the slot is still a fit), and r is not past. Every earlier
// start was blocked by a point before r (the points after r, inside its
// slot, had room), and those points have not gained. Gains come from a
// slot given back (a job that moved, in this pass or after it in the last
// one) and from what happened between the passes (ends, corrections,
// cancellations, re-predictions), which the comparison of the profile with
// the last pass's final one finds, whatever caused it. Losses are
// harmless but for an overdraw: a pass whose profile is overdrawn
// somewhere (S3's held reservations, a correction) re-places the jobs
// whose slot meets the overdrawn span (consOverdrawn).
//
// A gain only at or after r leaves the job where it is; a gain over [lo,
// hi) can have opened only the starts from lo-d+1 to hi (starts). The
// pass also starts from the last one's final profile, corrected by what
// changed (Profile.rebaseOwn and the reservations that differ), instead of
// taking every reservation again. Most placements keep their slot, and
// many need no scan at all (the commits that brought these in have the
// measures).
type consMemo struct {
	// ok: final, base and jobs describe the last pass, and final is
	// nowhere overdrawn (free ≥ 0 throughout). Every placement of a
	// pass takes a fit (free ≥ n there with the job's own slot given
	// back), a slot given back only adds, and a slot that meets an
	// overdraw the pass began with is placed again (consOverdrawn), so
	// only a job that fits nowhere, which no sane job does (its size is
	// at most the machine's, the profile's last point), leaves one, and
	// clears ok. The next pass then looks for an overdraw only where
	// the running jobs took processors since (rebaseOwn), and
	// conservativeQuiet not at all (TestConservativeSoundMemoRapid).
	ok    bool
	final []point // the profile the last pass ended with
	arr   []point // the array moveBack moves final into, from its start
	// The base of final (final without its reservations) is the running
	// jobs' profile at the start of the last full pass (at now0), with
	// the jobs started since taken from their start for max(p, 1): free0
	// at now0 and, from now0+1 on, the running jobs' profile then less
	// log (Sim.consRun), which holds what the running jobs took since
	// (their starts, corrections, ends and kills), while logOK. So a pass
	// needs no walk of the running jobs and no comparison of two
	// profiles to learn what changed (consDiff).
	now0, free0 int64
	log         []slot
	logOK       bool
	ev          []point     // consDiff's scratch
	jobs        []consEntry // the jobs it reserved, in arrival order
	next        []consEntry // scratch for the current pass's jobs when the queue changed
	gave        []given     // the current pass's slots given back, in order
	// after[i] is the span of the last pass's slots given back from the
	// i-th on, with the most free over them (after[len(gave)] is noSpan,
	// most -1); suf is the next one
	after, suf []given
	held       []slot // the reservations the pass takes at once
	start      []*Job // the jobs the pass starts
	gone       []int  // their indices in the pass's list
	// What conservativeArrivals needs to know that the last pass's plan
	// stands for every job it saw: s.epoch after it (conservativeQuiet's
	// route: no start, end, correction, cancellation or re-prediction
	// since; conservativePass's learns what the running jobs did from
	// the rebase, and needs only qepoch), whether it moved
	// no job (quiet: every after is empty), its earliest reservation and
	// the first arrival (seq) it did not see. s.qepoch after it: while it
	// holds and no reservation has passed, the queue is jobs and the
	// arrivals since (consArrivals), with no check of each job. The
	// counts and seq are those the pass began with, plus its own starts:
	// what an observer does inside it (a Cancel or Submit at a
	// reservation) is a change the next pass sees.
	epoch   uint64
	qepoch  uint64
	quiet   bool
	minRes  int64
	nextSeq int64
	routes  consRoutes // what the passes spared, for the tests
}

// moveBack gives pts, fromNow(m.final, now), the pass's profile, room
// after it when fewer than slideRoom points are left (the callers' test,
// in conservativeQuiet and the rebase's route: a method called at each
// pass cost 22 instructions). Each pass slides final forward in place, so
// the front of its array is lost to it, and an append that found no room
// after it made a new array twice its length: on SDSC-BLUE about 2,000
// arrays (1.6 MB) under conservative backfilling, in pages the process
// touched for the first time. moveBack copies the points to the front of
// the array, whose start it keeps (arr), or, the array not one it knows
// (an append grew it, or a pass built the profile in its other buffer),
// into an array of its own with room for as many again.
//
//go:noinline
func (m *consMemo) moveBack(pts []point) []point {
	if cap(m.arr)-cap(pts) >= len(pts) && sameArray(m.arr, pts) {
		return m.arr[:copy(m.arr[:len(pts)], pts)]
	}
	m.arr = make([]point, len(pts), 2*len(pts)+slideRoom)
	copy(m.arr, pts)
	return m.arr
}

// slideRoom is the room after final below which moveBack moves it.
const slideRoom = 16

// sameArray reports whether a and b end at the same element of one array.
func sameArray(a, b []point) bool {
	return cap(a) > 0 && cap(b) > 0 && &a[:cap(a)][cap(a)-1] == &b[:cap(b)][cap(b)-1]
}

// consEntry is a job reserved by the last pass: where, for how long, how
// many processors, and the span of the slots given back after it in that
// pass, as an index in the memo's after (the entries need no walk of
// their own to learn it). The pass walks these entries, kept from pass to pass and
// rewritten in place, rather than the queue: fresh marks a job whose slot
// is not as the last pass left it (placed again from now), or, with res
// -1, an arrival.
type consEntry struct {
	seq, res, d, n int64
	after          int // after[after] is the span
	job            *Job
	fresh          bool
}

// consArrivals appends to jobs, the waiting queue when nothing but
// arrivals changed it since the last pass (s.qepoch is that pass's), the
// arrivals since, from seq from on, as fresh entries.
func (s *Sim) consArrivals(jobs []consEntry, from int64) []consEntry {
	q := &s.waitFCFS
	items := q.items[q.head:]
	i := len(items)
	for i > 0 && (items[i-1] == nil || items[i-1].seq >= from) {
		i--
	}
	for _, j := range items[i:] {
		if j != nil {
			jobs = append(jobs, consEntry{seq: j.seq, res: j.res, d: max(j.p, 1), n: j.n, job: j, fresh: true})
		}
	}
	return jobs
}

// span is the times [lo, hi) at which free processors may have been
// gained.
type span struct{ lo, hi int64 }

// given is a slot given back by a move, or the hull of several, with the
// most processors free at a time in them just after their move (the
// most of the slots' mosts). After a move the pass only takes processors
// (a move's new slot) or gives some back (a later slot, with its own
// most), so the free at a point is at most the most of the last slot
// given back that holds it, to the pass's end and in the next pass but
// where that pass's gain lies (which has its own bound, most). A job of
// more processors than the most cannot have been unblocked at a point of
// these slots, so their span need not widen its scan. Taking most over
// the current profile, as the pass does for gain, would cost a walk at
// each move; the move has these points at hand.
type given struct {
	span
	most int64
}

// noSpan is an empty span (a value, never changed).
var noSpan = span{never, -never}

// join returns the smallest span that holds a and b.
func (a span) join(b span) span { return span{min(a.lo, b.lo), max(a.hi, b.hi)} }

// starts are the starts [from, until) of a job settled at r for d that a
// gain over g can have opened: before r (the points that blocked every
// earlier start lie before r), from when its window reaches g on, before
// g ends. Empty when from ≥ until.
type starts struct{ from, until int64 }

func (g span) starts(now, d, r int64) starts {
	if g.lo >= r {
		return starts{}
	}
	return starts{max(now, g.lo-d+1), min(g.hi, r)}
}

// conservativePass plans every waiting job in arrival order over prof and
// starts those planned now. A reservation whose time has passed (a job ran
// past its prediction, S3) is held at now. On an idle machine (idle) such
// reservations are held only while there is room for them at now, and the
// others placed again: held all at once they can overdraw the plan at now,
// so that no job fits now and the earliest reservation falls at a planned
// end that nothing wakes, and the jobs wait on an idle machine for ever
// (schedtest found it). Only then: on a busy machine a later end wakes the
// next pass, and the schedules of every log stay as they were.
func (s *Sim) conservativePass(prof *Profile, idle bool) {
	fromLog := prof == nil
	if fromLog {
		prof = &s.prof
	}
	m := prof.memo
	if m == nil {
		m = &consMemo{}
		prof.memo = m
	}
	// gain spans the times from now on at which the profile may have more
	// free processors than when a job of the last pass settled; known
	// false (nothing is known) re-places every job. over: the profile is
	// overdrawn somewhere (consOverdrawn).
	gain, known, over := noSpan, false, false
	// list is the pass's jobs in arrival order, rewritten in place into
	// the jobs it reserves: m.jobs itself when only arrivals changed the
	// queue, else built in m.next
	list, inPlace := m.next[:0], false
	fresh := func(j *Job) consEntry {
		return consEntry{seq: j.seq, res: j.res, d: max(j.p, 1), n: j.n, job: j, fresh: true}
	}
	if !fromLog {
		m.consBase(s)
	}
	switch {
	case idle:
		s.waitFCFS.Ascend(func(j *Job) bool {
			if j.res >= 0 {
				if j.res < s.now {
					if t, _ := prof.Fit(j.n, max(j.p, 1), s.now); t != s.now {
						j.res = -1
						list = append(list, fresh(j))
						return true
					}
				}
				j.res = max(j.res, s.now)
				prof.Allocate(j.res, max(j.p, 1), j.n)
			}
			list = append(list, fresh(j))
			return true
		})
	case fromLog:
		// The last pass's final profile, with the running jobs' changes
		// since and the reservations that changed: no sort.
		var sound bool
		// the last final profile rebased in place, not copied: the pass
		// ends with a new one, into the buffer the profile had
		buf := prof.pts
		was := fromNow(m.final, s.now)
		if cap(was)-len(was) < slideRoom {
			was = m.moveBack(was)
		}
		gain, sound = prof.rebaseOwn(was, s.consDiff(m, prof.steps[:0])) // (m.ok: sound)
		m.final = buf[:0]
		known, over = true, !sound
		m.consBase(s)
		// No gain, no overdraw, a quiet last pass, the queue changed by
		// arrivals alone, no reservation due: the pass would keep every
		// job it saw and Fit the arrivals. The running jobs may have
		// changed (s.epoch: an end as predicted, a correction), which
		// the rebase has taken in: 10 k such passes on SDSC-BLUE, 179 k
		// visits (16 M instructions, h-cons4).
		if sound && gain == noSpan && m.quiet && s.qepoch == m.qepoch && s.now < m.minRes {
			m.routes.rebasedArrivals++
			s.conservativeArrivals(prof, m)
			return
		}
		give := func(e *consEntry) { // e no longer holds its slot
			prof.Allocate(e.res, e.d, -e.n)
			gain = gain.join(span{e.res, e.res + e.d})
		}
		if s.qepoch == m.qepoch {
			// nothing but arrivals changed the queue: it is the last
			// pass's list and the arrivals since, in place
			list, inPlace = s.consArrivals(m.jobs, m.nextSeq), true
			m.routes.arrivalsInPlace++
			if s.now > m.minRes {
				// but reservations have passed (a running job outlived
				// its prediction): those jobs are held at now, placed
				// again, as the walk of the queue below does (it took
				// 106 M instructions on SDSC-BLUE for these 20 k passes,
				// matching each job with its entry; this, a test of
				// each entry)
				m.routes.duePasses++
				for k := range list {
					if e := &list[k]; e.res >= 0 && e.res < s.now {
						j := e.job
						give(e)
						j.res = s.now
						*e = fresh(j)
						prof.Allocate(j.res, e.d, j.n)
						over = over || prof.least(j.res, j.res+e.d) < 0
					}
				}
			}
			break
		}
		// the list rewritten in place, in m.jobs: most entries stay
		// where they are, uncopied (a job without an entry between the
		// entries still to read, which the queue's arrivals, appended
		// after every entry, do not make, sends it to m.next)
		old := m.jobs
		list, inPlace = old[:0], true
		// the queue's slice walked in place: Ascend's callback cost a
		// call and a closure's loads at every job of every pass
		q := &s.waitFCFS
		for _, j := range q.items[q.head:] {
			if j == nil {
				continue
			}
			for len(old) > 0 && old[0].seq < j.seq {
				give(&old[0]) // no longer waits
				old = old[1:]
			}
			var e *consEntry
			if len(old) > 0 && old[0].seq == j.seq {
				e, old = &old[0], old[1:]
			}
			if j.res >= 0 {
				j.res = max(j.res, s.now)
			}
			d := max(j.p, 1)
			if e != nil && e.res == j.res && e.d == d {
				if inPlace && len(list) == len(m.jobs)-len(old)-1 {
					list = list[:len(list)+1] // e is there
				} else {
					list = append(list, *e)
				}
				continue
			}
			if e != nil {
				give(e) // before its place is written
			} else if inPlace && len(old) > 0 {
				list, inPlace = append(m.next[:0], list...), false
			}
			list = append(list, fresh(j))
			if j.res >= 0 {
				prof.Allocate(j.res, d, j.n)
				over = over || prof.least(j.res, j.res+d) < 0
			}
		}
		for k := range old {
			give(&old[k])
		}
	default:
		// The same reservations as one Allocate each, taken at once.
		held := m.held[:0]
		s.waitFCFS.Ascend(func(j *Job) bool {
			if j.res >= 0 {
				j.res = max(j.res, s.now)
				held = append(held, slot{j.res, max(j.p, 1), j.n})
			}
			list = append(list, fresh(j))
			return true
		})
		prof.allocateAll(held)
		m.held = held[:0]
	}
	if over {
		consOverdrawn(prof.pts, list)
		m.routes.overdrawn++
	}
	m.routes.full++
	// the counts the memo stands for, taken before an observer's
	// OnReservation can cancel or submit a job in the pass's midst (in
	// the memo, not in locals live across the loop: 20 M instructions)
	m.epoch, m.qepoch, m.nextSeq = s.epoch, s.qepoch, s.seq
	// the loop's state, kept in memory (a struct of more than four
	// fields is not split into registers): as locals the compiler
	// shuffled them between registers and the stack at every job
	var c consLoop
	c.gave = m.gave[:0]
	c.ok = true
	c.start, c.gone = m.start[:0], m.gone[:0] // the jobs started, their indices in list
	c.moved = noSpan                          // the slots given back in this pass so far
	c.last = none                             // the last scan that found no earlier start (noStart)
	c.blk.end = -never                        // no blocker yet
	c.now, c.after, c.gain = s.now, m.after, gain
	c.minRes = never
	// most bounds the free processors at every step that gain spans
	// when the pass begins: a job of more is blocked at every start that
	// gain can have opened (each of their windows holds a step of gain
	// before its slot), so its scan of them is spared. The pass's moves
	// only take processors there, but for the slots they give back, and
	// a start whose window meets one of those lies in the range of
	// moved, scanned all the same unless the job needs more than the
	// most free in those (movedMost). The last pass's slots given back
	// after a job (after) have their own bound, kept since their moves
	// (given): the same bound over their hull in this profile (a walk a
	// pass, 28 M instructions on SDSC-BLUE) spared 7 k of its 3.0 M
	// scans more.
	c.most = never
	if known && c.gain.lo < c.gain.hi {
		c.most = prof.most(c.gain.lo, c.gain.hi)
	}
	// ls is list in a local the closures above do not capture (list,
	// captured, is loaded from memory at each use)
	ls := list
	// the front of the list, before any move, without the loop's state
	// (keepFront); known false leaves every entry fresh
	kf := 0
	if known {
		kf, c.minRes = keepFront(ls, c.now, c.most, c.gain, c.after, c.minRes)
		c.blocked = kf > 0
	}
	// what the pass's end needs, in the loop's state: as locals live
	// across the loop, which reads neither, the compiler reloaded them at
	// the loop's joins (h-cons10)
	c.m, c.inPlace = m, inPlace
	for k := kf; k < len(ls); k++ {
		// w bounds the starts that may fit now and did not when the
		// job settled: those a gain since the last pass (gain) or a slot
		// given back (moved, after) can have opened. One range over
		// both, not two: the starts between them are blocked as they
		// were, and the scan of those points cost less than a second
		// scan (and the loop's state of two ranges more at every job).
		// from is where a scan of them begins, after those the last
		// fruitless scan proves blocked (noStart).
		//
		// The jobs that keep their slot without a scan (w empty, or all
		// of it proved blocked), planned after now, are most of the
		// visits: this inner loop, which calls nothing, takes them in
		// turn, and ends at the next job that needs more, its w and from
		// computed.
		var w starts
		var from int64
		scan := false // a settled job's starts to scan (fitBefore)
		for {
			e := &ls[k]
			if e.fresh { // (an arrival, res -1, is fresh; so is every job once known is false)
				w = starts{c.now, never}
				from = w.from // not the job before's (no route below reads it now)
				break
			}
			d, r, n := e.d, e.res, e.n
			g := noSpan
			if n <= c.movedMost {
				g = c.moved
			}
			if a := &c.after[e.after]; n <= a.most {
				g = g.join(a.span)
			}
			w = g.starts(c.now, d, r)
			if n <= c.most {
				if a := c.gain.starts(c.now, d, r); a.from < a.until {
					if w.from < w.until {
						a = starts{min(a.from, w.from), max(a.until, w.until)}
					}
					w = a
				}
			}
			from = w.from
			if w.from < w.until {
				if from = c.last.skip(n, d, r, w); from != w.from {
					c.noStart++
				}
			}
			// A job settled at r, not moved since, is blocked at r-1:
			// its start there, the window cut at its own slot, is
			// [r-1, r) (the points after r carry it on), and every
			// visit that keeps it at r proves it again. Unless a gain
			// since reaches r-1 (w.until < r: none of them does; one
			// left out by a bound leaves fewer than n there),
			// r-1 still blocks every start from r-d on: with now+d ≥
			// r, every start left (338 k fitBefore scans on
			// SDSC-BLUE, 43 M instructions fewer, h-cons4).
			if r <= c.now {
				break
			}
			if from < w.until {
				if w.until >= r || c.now+d < r {
					// the last blocker (a step of fewer than n from
					// before r to until or past, that every window
					// from from on meets) proves what the scan would
					if b := &c.blk; w.until > b.end || from+d <= b.t || n <= b.free || b.t >= r {
						scan = true
						break
					}
					c.last.n, c.last.d, c.last.from, c.last.until, c.last.r = n, d, c.now, r, r
					c.stepBlocked++
				} else {
					c.rMinus1++
				}
			}
			// kept where it is, planned after now: what the loop's end
			// does for such a job, without its tests
			c.blocked = true
			e.after = len(c.gave)
			c.minRes = min(c.minRes, r)
			if k++; k == len(ls) {
				break
			}
		}
		if k == len(ls) {
			break
		}
		// a flurry's 20 k waiting jobs make passes of seconds: one
		// cancelled stops here, its state half written (halted)
		if c.visits++; c.visits&(haltEvery-1) == 0 && s.halted() {
			return
		}
		e := &ls[k]
		d, r, n := e.d, e.res, e.n
		t := r
		switch {
		case scan || r >= 0 && w.from < w.until: // (scan first: the inner loop knows it, the tests below need not find it again)
			// Giving the reservation back and taking the earliest slot
			// changes the profile only if the job moves.
			fits, at := true, -1 // at: t's index, when fitBefore gives it
			if scan {
				// a settled job: its starts end by r (until ≤ r)
				t, at = prof.fitBefore(n, d, from, w.until, r)
				d, r, n = e.d, e.res, e.n // (read again, not kept across the call)
				c.scans++
				if t == r {
					// field by field: a composite literal is built
					// on the stack and copied
					c.last.n, c.last.d, c.last.from, c.last.until, c.last.r = n, d, c.now, r, r
					if at > 0 { // the first window's blocking step (blocker)
						pts := prof.pts
						c.blk.t, c.blk.free, c.blk.end = pts[at-1].t, pts[at-1].free, never
						if at < len(pts) {
							c.blk.end = pts[at].t
						}
					}
					// kept where it is, planned after now (from <
					// until ≤ r): what the loop's end does for such
					// a job, without its tests (1.9 M fruitless scans
					// on SDSC-BLUE)
					c.blocked = true
					e.after = len(c.gave)
					c.minRes = min(c.minRes, r)
					continue
				}
			} else if e.fresh {
				t, at, fits = prof.fitFresh(n, d, w.from, r)
				d, r, n = e.d, e.res, e.n // (read again, not kept across the call)
				// (a scan, fitBefore, always fits)
				if !fits {
					c.ok = false // a job that fits nowhere overdraws the profile: nothing is known
					markFresh(ls, k+1)
				}
			}
			if t != r {
				// g is where the profile gained: the slot given
				// back, or only its part after the new slot when
				// they overlap
				g := span{r, r + d}
				var most int64 // the most free over g after the move
				if at == taken {
					// fitFresh has moved it: only g and its most
					if fits && t < r && r < t+d {
						g.lo = t + d
					}
					most = prof.most(g.lo, g.hi)
				} else if fits && t < r && r < t+d {
					// the slots overlap: only their differences
					// change (the points are the same, a step
					// function has one form without equal
					// neighbours), and the walks between are
					// shorter
					if at >= 0 { // (fitBefore's t: at or after the first point)
						most = prof.moveAt(at, t, r, d, n)
					} else {
						most = prof.move(t, r, d, n)
					}
					g.lo = t + d
				} else if at >= 0 && t+d < r {
					// apart: one walk and one shift of the tail too
					most = prof.shift(at, t, t+d, r, r+d, n)
				} else if at >= 0 && t+d == r {
					most = prof.swap(at, t, r, r+d, n) // end to end
				} else {
					prof.Allocate(r, d, -n)
					prof.Allocate(t, d, n)
					most = prof.most(g.lo, g.hi)
				}
				if g.lo < c.blk.end && c.blk.t < g.hi {
					c.blk.end = -never // it gained: it proves nothing now
				}
				c.gave = append(c.gave, given{g, most})
				c.moved = c.moved.join(g)
				c.movedMost = max(c.movedMost, most)
				if g.lo < c.last.r && c.last.from < g.hi {
					// the profile gained where the last fruitless
					// scan's blockers may lie (in [from, r)): it
					// proves nothing more (no n is more)
					c.last.n = never
					if at >= 0 {
						// but the scan that found t proves that
						// no start in [from, t) fits: their
						// blockers lie before t, which the move
						// leaves as they were (noStart)
						c.last.n, c.last.d, c.last.from, c.last.until, c.last.r = n, d, c.now, t, t
					}
				}
			}
		case w.from >= w.until:
			if r > c.now {
				// kept where it is, planned after now: what the loop's
				// end does for such a job, without its tests
				c.blocked = true
				e.after = len(c.gave)
				c.minRes = min(c.minRes, r)
				continue
			}
		default:
			var fits bool
			t, fits = prof.fitTake(n, d, c.now) // (Fit, then Allocate at t)
			if !fits {
				c.ok = false
				markFresh(ls, k+1)
			}
		}
		j := e.job // (read here, not kept across the calls above)
		if t == c.now {
			j.backfill = c.blocked
			c.start = append(c.start, j)
			c.gone = append(c.gone, k)
			continue
		}
		c.blocked = true
		if t != r {
			if j.firstRes >= 0 && len(s.resObs) == 0 {
				j.res = t // all reserve does then, without its call
			} else {
				s.reserve(j, t)
			}
		}
		// in place: the other fields are as they were
		e.res, e.after, e.fresh = t, len(c.gave), false
		c.minRes = min(c.minRes, t)
	}
	if len(c.gone) > 0 { // the started jobs' entries go: a copy per run between
		w := c.gone[0]
		for i, k := range c.gone {
			end := len(list)
			if i+1 < len(c.gone) {
				end = c.gone[i+1]
			}
			w += copy(list[w:], list[k+1:end])
		}
		list = list[:w]
	}
	m, inPlace = c.m, c.inPlace
	m.gone = c.gone[:0]
	m.routes.visits += int64(len(ls))
	m.routes.moves += int64(len(c.gave))
	m.routes.add(&c)
	// after[i] becomes the span of this pass's slots given back from
	// the i-th on
	gave := c.gave
	suf := slices.Grow(m.suf[:0], len(gave)+1)[:len(gave)+1]
	acc := given{noSpan, -1}
	suf[len(gave)] = acc
	for k := len(gave) - 1; k >= 0; k-- { // (the join carried in acc: suf[k+1] would need an index check)
		acc = given{acc.join(gave[k].span), max(acc.most, gave[k].most)}
		suf[k] = acc
	}
	m.after, m.suf = suf, c.after[:0]
	if inPlace {
		m.jobs = list
	} else {
		m.jobs, m.next = list, m.jobs[:0]
	}
	m.gave = c.gave[:0]
	// the profile itself becomes final, and the old final's buffer the
	// profile's, empty until the next pass fills it (no copy: rebase
	// and conservativeQuiet read final, Pass.Profile rebuilds)
	m.final, prof.pts = prof.pts, m.final[:0]
	m.ok = c.ok
	m.quiet, m.minRes = len(c.gave) == 0, c.minRes
	m.start = c.start[:0]
	if len(c.start) > 0 { // (most passes start nothing: the counts stand, the log as it is)
		k0 := len(m.log)
		m.epoch, m.qepoch = s.consStart(c.start, m.epoch, m.qepoch)
		s.consStarted(m, c.start, k0)
	}
}

// keepFront keeps where they are the settled jobs at the front of ls,
// before the pass's first move, that no gain can have moved: planned
// after now, and each span that may have gained (gain when the job is
// of at most most processors, the last pass's slots given back after it
// when of at most their most, given; nothing has moved yet) at or after its slot, or
// ending before it with now+d ≥ r (the r-1 proof of the placement loop,
// taken for each span rather than their hull). It returns the index of
// the first job it does not keep and minRes with the kept jobs' slots.
// The placement loop's inner loop does the same and more, with the
// loop's whole state in memory at about 69 instructions a visit; this
// one, its few values in registers, about 33 (1.95 M visits on
// SDSC-BLUE, 62 M instructions fewer, h-cons9). Called again inside the
// loop it cost more than it spared (bench_test.go's notes).
func keepFront(ls []consEntry, now, most int64, gain span, after []given, minRes int64) (int, int64) {
	k := 0
	for ; k < len(ls); k++ {
		e := &ls[k]
		r, n := e.res, e.n
		if e.fresh || r <= now {
			break
		}
		if n <= most && gain.lo < r && (gain.hi >= r || now+e.d < r) {
			break
		}
		if a := &after[e.after]; n <= a.most && a.lo < r && (a.hi >= r || now+e.d < r) {
			break
		}
		e.after = 0 // len(c.gave): no move yet
		minRes = min(minRes, r)
	}
	return k, minRes
}

// consLoop is the state of conservativePass's placement loop.
type consLoop struct {
	gave        []given // the slots given back, in order
	start       []*Job  // the jobs started
	gone        []int   // their indices in the pass's list
	moved       span    // the slots given back so far
	movedMost   int64   // the most free in them (given)
	last        noStart // the last scan that found no earlier start
	blk         blocker // the last such scan's first blocking step
	minRes      int64
	ok, blocked bool
	// the pass's inputs
	now, most int64
	m         *consMemo // the pass's memo and whether its list is
	inPlace   bool      // m.jobs, for the pass's end
	gain      span
	after     []given
	// counts for consRoutes
	scans, noStart, rMinus1, stepBlocked int64
	visits                               uint32 // the visits that needed more than the inner loop, for halted
}

// consStart starts the jobs a pass planned now and returns e0 and q0,
// s.epoch and s.qepoch when the pass began, counted on by these starts
// alone: an observer's cancellation during the pass's reservations or
// starts changes s's counts once more, and the next pass sees it.
func (s *Sim) consStart(start []*Job, e0, q0 uint64) (epoch, qepoch uint64) {
	e1 := s.epoch
	start = s.consEndsNow(start) // (with a pass per event, see endsNow)
	_, epoch = s.startBackfills(start, true)
	return e0 + (epoch - e1), q0 + (epoch - e1)
}

// consOverdrawn marks fresh, to be placed again from now, the jobs of
// list whose slot meets the span of the points of pts with fewer than 0
// free: a profile overdrawn at the start of a pass (S3's reservations
// held at now, a re-taken slot that counted on a job that outlived its
// prediction, a correction). The others keep what consMemo says of them:
// a job settled at r stays there while nothing gained before r and its
// slot is not overdrawn, whatever the profile lost elsewhere, and every
// other reasoning of the pass (noStart, the bounds on the starts to
// scan) is about a job's starts before its own slot and the points that
// block them. The pass neither overdraws more (a move takes only a fit)
// nor leaves an overdrawn slot where it is (a marked job's scan from now
// keeps its slot only if the slot fits once given back). Such a pass
// used to re-place every job: on SDSC-BLUE 10,704 rebases and 5,266
// re-taken slots found an overdraw, 869 k of the 8.51 M visits, each
// with a scan from now to the job's fit.
func consOverdrawn(pts []point, list []consEntry) {
	lo, hi := never, never
	for i, q := range pts {
		if q.free < 0 {
			lo = min(lo, q.t)
			hi = never
			if i+1 < len(pts) {
				hi = pts[i+1].t
			}
		}
	}
	for k := range list {
		if e := &list[k]; e.res >= 0 && e.res < hi && lo < e.res+e.d {
			e.fresh = true
		}
	}
}

// conservativeArrivals is conservativePass after arrivals alone, once
// prof is the last pass's final profile from now on (rebase found no
// gain and no overdraw), less what the running jobs took since (an end
// as predicted, a correction: conservativePass's route; from
// conservativeQuiet's, nothing has started, ended, been corrected,
// cancelled or re-predicted since that pass, the same epoch): the queue
// changed by arrivals alone (the same qepoch), the last pass moved
// no job (quiet) and no reservation is due yet (now < minRes). Then the
// full pass would keep every job it saw where it is, without a scan (no
// gain since, no slot given back after them, none now before the first
// move, and only those jobs can move), and place the new arrivals, which
// come after them all, with Fit: only those are visited.
func (s *Sim) conservativeArrivals(prof *Profile, m *consMemo) {
	e0, q0, seq0 := s.epoch, s.qepoch, s.seq // (see conservativePass)
	// the base from now: the running jobs' profile (conservativeQuiet's
	// route: no job overdue; conservativePass's has set it, consBase,
	// with any overdue job held until now+1 as its profile holds it)
	m.now0, m.free0 = s.now, s.free+s.endingFree()
	ok := true
	start := m.start[:0]
	blocked := len(m.jobs) > 0 // every job the last pass saw holds a reservation after now
	// the arrivals since the last pass (visitNew's walk, without a
	// closure's call a job): a copy first, as an observer's submission
	// during the reservations changes the queue
	q := &s.waitFCFS
	i := len(q.items)
	for i > q.head && (q.items[i-1] == nil || q.items[i-1].seq >= m.nextSeq) {
		i--
	}
	fresh := s.fresh[:0]
	for _, j := range q.items[i:] {
		if j != nil {
			fresh = append(fresh, j)
		}
	}
	for _, j := range fresh {
		d := max(j.p, 1)
		t, fits := prof.fitTake(j.n, d, s.now) // (Fit, then Allocate at t)
		ok = ok && fits
		if t == s.now {
			j.backfill = blocked
			start = append(start, j)
			continue
		}
		blocked = true
		s.reserve(j, t)
		m.jobs = append(m.jobs, consEntry{seq: j.seq, res: t, d: d, n: j.n, after: len(m.after) - 1, job: j})
		m.minRes = min(m.minRes, t)
	}
	s.fresh = fresh[:0]
	m.final, prof.pts = prof.pts, m.final[:0] // (see conservativePass)
	m.ok = ok
	m.nextSeq = seq0 // an observer's submission during the visits is not placed yet
	m.start = start[:0]
	if len(start) == 0 { // (see conservativePass)
		m.epoch, m.qepoch = e0, q0
		return
	}
	k0 := len(m.log)
	m.epoch, m.qepoch = s.consStart(start, e0, q0)
	s.consStarted(m, start, k0)
}

// noStart is a scan that found no earlier start for a job of n
// processors for d seconds settled at r: no start in [from, until),
// until ≤ r.
//
// Every start t there was blocked by a point p in [t, t+d) before r with
// fewer than n free (a window that reached r would have run on through
// the job's own slot, where n are free, and fit), so the points before
// r outside [from, until) played no part. A later job of at least n
// processors for at least d, settled at or after r, whose starts lie in
// [from, until), is blocked by the same points (before its own slot, so
// its slot adds nothing there) as long as the profile has not gained
// since: those starts need no scan, and its scan, if any, begins at
// until (skip). The pass keeps the last such scan until a move gives
// back a slot that meets [from, r), where its blockers lie (a move's
// gain elsewhere unblocks none of them, its loss blocks more); then it
// takes, if the move's scan was fitBefore's, that scan's: a job moved to
// t < r by a scan from from on fits over [t, t+d), so each of its starts
// in [from, t) was blocked by a point before t, and its move takes [t,
// t+d) and gives back only times after t+d (noStart{n, d, now, t, t},
// below; it replaces a spoiled proof only: replacing the proof at every
// such move cost 21 M instructions more on SDSC-BLUE). A list of the
// last few covered little more and cost more to search and keep than it
// saved.
//
// A fruitless scan proves more than its own range, and the pass keeps
// what it proves: noStart{n, d, now, r, r}. The starts from now to the
// scan's from have windows that meet no gain since the job settled (w
// begins at the first that does), or were proved blocked by the proof
// before; those from until to r as well (w ends at the last such start
// before r): each is blocked, as when the job settled, by a point before
// r that has not gained since. So are, for a moved job, its starts from
// now to t (noStart{n, d, now, t, t}): those before the scan's from for
// the same reason, and their blockers lie before t as above. A later
// job's scan then begins at r (or t), mostly at or past its own until:
// no scan (37 M instructions fewer on SDSC-BLUE, h-cons4).
type noStart struct{ n, d, from, until, r int64 }

// none covers nothing.
var none = noStart{n: never}

// skip returns where the scan of a job of n processors for d, settled at
// r, over the starts w may begin: after the starts that f proves do not
// fit (w.until or later: none is left).
func (f *noStart) skip(n, d, r int64, w starts) int64 {
	if f.n <= n && f.d <= d && f.r <= r && f.from <= w.from && w.from < f.until {
		return f.until
	}
	return w.from
}

// blocker is a step of the profile, [t, end) with free processors free
// there, that a fruitless scan found blocking its first window (fitBefore:
// every start it scanned has a window that meets the step, which ends at
// or after the scan's until). It blocks other jobs as well: a job of n >
// free processors for d, settled at r, whose starts [from, until) to scan
// lie in (t-d, end) with t < r, has in the window of each start s the
// point max(s, t), before its own slot (s < until ≤ r), where fewer than
// n are free, so no start there fits and its scan would find r. The pass
// keeps the last one until a slot given back meets [t, end) (the
// profile has only lost elsewhere since, which blocks more), and keeps
// such a job as a fruitless scan does, its proof noted as the scan's
// would be (noStart), since the starts from now to from and from until to
// r are blocked for the same reasons. On SDSC-BLUE it spares 0.38 M of
// the 2.98 M scans (noStart's proof needs a job of at least the scan's n
// and d; this one only more than free and a window that reaches the
// step). end -never: none.
type blocker struct{ t, end, free int64 }

// consLogMax bounds consMemo's log: a Scheduler that runs conservative
// backfilling at some passes only may leave it unread for long; the next
// pass then builds the running jobs' profile again.
const consLogMax = 1024

// consRun notes in the conservative memo's log, if it is kept, that the
// running jobs take n more processors over [lo, hi) (n < 0: fewer): a
// start from now to its predicted end, an end or a kill giving back the
// rest of its prediction, a correction taking its old predicted end to
// the new one.
func (s *Sim) consRun(lo, hi, n int64) {
	m := s.prof.memo
	if m == nil || !m.logOK || lo >= hi {
		return
	}
	if len(m.log) == consLogMax {
		m.logOK = false
		return
	}
	m.log = append(m.log, slot{lo, hi - lo, n})
}

// consBase makes the running jobs' profile now the memo's base, with an
// empty log.
func (m *consMemo) consBase(s *Sim) {
	m.now0, m.free0, m.log, m.logOK = s.now, s.free+s.endingFree(), m.log[:0], true
}

// consStarted takes the jobs a pass started now into the memo's base, as
// the pass took them into its profile: from now for max(p, 1). Their
// starts logged, from the log's k0-th entry on, what they take from now
// to their predicted end, which the base holds already: those entries
// go when they are all the log holds from k0 on (no observer's change
// among them), else the log gives back p from now. A job of p = 0,
// which the base holds over [now, now+1), needs no entry either way: the
// base's first second after now0 is free0, never the log (consDiff), and
// the log is read from now on, so its entries before now0+1 add nothing.
func (s *Sim) consStarted(m *consMemo, start []*Job, k0 int) {
	for _, j := range start {
		m.free0 -= j.n
	}
	if !m.logOK {
		return
	}
	log, i := m.log[k0:], 0
	for _, j := range start {
		if j.p < 1 {
			continue
		}
		if i == len(log) || log[i] != (slot{s.now, j.p, j.n}) {
			i = -1
			break
		}
		i++
	}
	trim := i == len(log)
	if trim {
		m.log = m.log[:k0]
	}
	for _, j := range start {
		if !trim {
			s.consRun(s.now, s.now+j.p, -j.n)
		}
	}
}

// consDiff appends to diff, as steps from now (a point at now, then one
// per change), the running jobs' profile now less the memo's base: from
// now+1 on, what log gave back less what it took; over [now, now+1) the
// free processors now less the base's then, which is the base's free0
// when now is now0, else its profile from now0+1 on at now: the running
// jobs' profile at now (the free processors now with those of the jobs
// that outlived their prediction, which it frees only at now+1) less
// log's change at now.
func (s *Sim) consDiff(m *consMemo, diff []point) []point {
	now := s.now
	// (t, change of the difference at t) after now; the changes at now
	// (most entries' starts: a job started or ended now, or earlier)
	// summed in v, not sorted
	ev := append(m.ev[:0], point{now + 1, 0})
	v := int64(0)
	for _, q := range m.log {
		lo, hi := max(q.t, now), q.t+q.d
		switch {
		case lo >= hi:
			continue
		case lo == now:
			v -= q.n
		default:
			ev = append(ev, point{lo, -q.n})
		}
		ev = append(ev, point{hi, q.n})
	}
	if len(ev) <= 32 { // mostly a few: an insertion sort, no call per comparison
		for i := 1; i < len(ev); i++ {
			for k := i; k > 0 && ev[k].t < ev[k-1].t; k-- {
				ev[k], ev[k-1] = ev[k-1], ev[k]
			}
		}
	} else {
		slices.SortFunc(ev, func(a, b point) int { return cmp.Compare(a.t, b.t) })
	}
	// (every event of ev is after now)
	i := 0
	e := s.endingFree() // free from now, though still running (endsNow)
	v0 := s.free + e - m.free0
	if now != m.now0 {
		v0 = v + e // (the loop takes them off with the overdue jobs)
	overdue:
		for _, c := range s.run.chunks {
			for _, r := range c {
				if r.predEnd() > now {
					break overdue
				}
				v0 -= r.n
			}
		}
	}
	diff = append(diff, point{now, v0})
	for i < len(ev) {
		t := ev[i].t
		for ; i < len(ev) && ev[i].t == t; i++ {
			v += ev[i].free
		}
		if v != diff[len(diff)-1].free {
			diff = append(diff, point{t, v})
		}
	}
	m.ev = ev[:0]
	return diff
}

// markFresh marks the entries fresh, to be placed again from now: the
// jobs after one that fits nowhere, once nothing is known (a pass that
// begins knowing nothing has only fresh entries), so that the placement
// loop tests fresh alone. Those from the index from on: es[from:] would
// keep the capacity of es live across the placement loop, reloaded at
// its joins (h-cons10).
func markFresh(es []consEntry, from int) {
	for k := from; k < len(es); k++ {
		es[k].fresh = true
	}
}
