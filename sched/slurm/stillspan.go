package slurm

import "math/bits"

// A still span under SchedMinInterval. Run's lazy calculations (quiet)
// need sched_min_interval 0: a periodic main scheduler run that a
// calculation's new priorities bring (fullPending, at a tick the
// calculation's wake-up meets) starts nothing in a quiet stretch, but its
// time holds back the scheduler thread's next run, so Run woke for every
// calculation while jobs waited, and a job waiting behind one running
// 2^40 seconds cost a wake-up per PriorityCalcPeriod (3.7·10^9: a hang).
// (Without one, quiet needs no waiting job to fit, which Builtin's stale
// minWait may not show: the same hang.)
//
// Most of those wake-ups do nothing a later one does not redo. A
// calculation that changes no priority sets no flag and calls no event;
// its pass makes no main scheduler run unless its instant is a periodic
// tick that asks one (a queued run, or fullPending with no run over the
// whole queue held back already), asks none before the thread's held run
// or the loop's queued one (arm wakes for those), and makes no backfill
// cycle unless its instant is a check with work (bfDirty): it moves the
// last tick (lastFull, lastSched) and the last check (bfLast, evAt) up to
// its instant, which the next pass moves further on the same grids.
// stillUntil finds the first calculation at which one of those may
// happen, and arm asks no wake-up before it; the first catch-up after (an
// event, or that wake-up) makes the pass of the last one passed over
// (stillPass) before anything reads those clocks (OnEnd's arm does,
// before its pass), then the calculations, which catchUp passes over as
// stillAt or cycle lets it. With fair share weighted a priority may move
// at any calculation, so only when both flags it would set are set do
// the calculations pass over (their priorities computed at the last, as
// quiet's). TestLazyCalcSame* draw SchedMinInterval against a wake-up at
// every calculation (eagerCalc); TestStillSpanWakes bounds the wake-ups.

// stillUntil is the time of the next calculation Run wakes for while jobs
// wait and the calculations are not lazy (quiet): the next one, or under
// SchedMinInterval the first that may change something (see above),
// never if none may until an event. It notes whether it passed some over.
func (p *Policy) stillUntil() int64 {
	if !p.observed || p.eagerCalc || p.stepAll || !p.bfWaiting ||
		len(p.running) == 0 && !p.mainSoon && !p.mainPending {
		return p.nextCalc
	}
	// A new priority matters only through the flags it sets: with both set
	// (backfill's unread with Builtin), the calculations passed over need
	// not compute any, and catchUp leaves them to the last, as quiet's.
	p.stillLazy = p.fullPending && (p.bfDirty || p.cfg.Builtin)
	if !p.stillLazy && p.cfg.WeightFairshare > 0 {
		return p.nextCalc // usage moves a factor at any calculation
	}
	// The next calculation is most often a tick or a check that matters:
	// one division tells, and the grids are not searched.
	next, t := p.nextCalc, int64(never)
	ticks := p.mainPending || p.fullPending && !(p.mainSoon && p.fullAsked)
	checks := p.bfDirty && !p.cfg.Builtin
	if ticks && next%p.schedInt == 0 || checks && (next-p.bfLast)%p.bfInt == 0 {
		return next
	}
	if ticks {
		t = p.calcOnGrid(p.schedInt, 0)
	}
	if checks {
		// The first calculation at a check: the checks keep a grid of
		// BackfillInterval from the last while jobs wait.
		t = min(t, p.calcOnGrid(p.bfInt, p.bfLast))
	}
	if t > p.nextCalc && !p.stillLazy {
		t = min(t, p.prioChange())
	}
	t = max(t, p.nextCalc)
	p.stillSkip = t > p.nextCalc
	return t
}

// stillPass makes, at a catch-up, the pass of the last calculation
// before now that stillUntil passed over (tv, after the last pass): the
// periodic tick and the backfill checks move up to tv, as its pass would
// have moved them, with no run or cycle (see above).
func (p *Policy) stillPass(now int64) {
	tv := p.passAt
	if p.stillSkip {
		tv = max(tv, floorTo(now-1, p.calcPeriod))
	}
	if p.tickSkip {
		tv = max(tv, floorTo(now-1, p.schedInt))
	}
	p.stillSkip, p.tickSkip = false, false
	if tv <= p.passAt {
		return
	}
	if g := floorTo(tv, p.schedInt); g > p.lastFull {
		p.lastFull = g
		p.lastSched = max(p.lastSched, g)
	}
	if !p.cfg.Builtin && p.bfChecks(tv) {
		p.bfCycled(tv) // a check without work (bfDirty is false then)
	}
}

// calcOnGrid is the first calculation at or after nextCalc (a multiple of
// PriorityCalcPeriod P) at a time ≡ off modulo step: n·P with n·P ≡ off
// (mod step), which has a solution only if g = gcd(P, step) divides off,
// and then n ≡ (off/g)·(P/g)⁻¹ modulo step/g. never if there is none, or
// it is past 2^62.
func (p *Policy) calcOnGrid(step, off int64) int64 {
	P := p.calcPeriod
	off = (off%step + step) % step
	switch {
	case P%step == 0: // every calculation is on the grid of multiples of step
		if off != 0 {
			return never
		}
		return p.nextCalc
	case step%P == 0 && off%P == 0: // the grid is on the calculations'
		return p.nextCalc + ((off-p.nextCalc)%step+step)%step
	}
	g := gcd(P, step)
	if off%g != 0 {
		return never
	}
	l := step / g
	n0 := mulMod(uint64(off/g), uint64(modInv((P/g)%l, l)), uint64(l))
	m := p.nextCalc / P
	n := m + ((n0-m)%l+l)%l
	if n > (1<<62)/P {
		return never
	}
	return n * P
}

// mulMod is a·b mod m without overflow.
func mulMod(a, b, m uint64) int64 {
	hi, lo := bits.Mul64(a%m, b%m)
	return int64(bits.Rem64(hi, lo, m))
}

// modInv is the inverse of a modulo m (gcd(a, m) = 1, 0 ≤ a < m; 0 for m
// = 1), by the extended Euclidean algorithm.
func modInv(a, m int64) int64 {
	if m == 1 {
		return 0
	}
	r0, r1, s0, s1 := m, a, int64(0), int64(1)
	for r1 != 0 {
		q := r0 / r1
		r0, r1 = r1, r0-q*r1
		s0, s1 = s1, s0-q*s1
	}
	return (s0%m + m) % m
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// prioChange is the first calculation from nextCalc on that changes some
// waiting job's priority (never: none), fair share not weighted: a
// priority then changes only by age, which only rises (every term and
// the sum are monotone in it, float64 rounding included), so a job's
// first change is found by bisection over the calculations to the one
// where its age factor is 1, its last. The queue is walked from its end,
// where the youngest jobs most often wait: one whose priority changes at
// the next calculation ends the walk.
func (p *Policy) prioChange() int64 {
	if p.cfg.WeightAge <= 0 {
		return never // no term moves
	}
	w := p.weights()
	prio := func(r *jobRec, t int64) int64 {
		if w.slow {
			return w.full(p, r, t)
		}
		return w.fast(r, t)
	}
	P, first := p.calcPeriod, p.nextCalc
	t := int64(never)
	for i := len(p.queue) - 1; i >= 0; i-- {
		r := p.queue[i]
		if r.out && (r.running || r.gone) {
			continue
		}
		// k: the calculations after first up to the one the age factor
		// is 1 at (or past the end of the age span: first).
		k := max(r.submit+p.maxAge-first+P-1, 0) / P
		if prio(r, first+k*P) == r.prio {
			continue // never changes
		}
		lo, hi := int64(0), k // the first change is in [lo, hi]
		for lo < hi {
			m := lo + (hi-lo)/2
			if prio(r, first+m*P) != r.prio {
				hi = m
			} else {
				lo = m + 1
			}
		}
		t = min(t, first+lo*P)
		if t == first {
			break
		}
	}
	return t
}

// heldFull reports, under SchedMinInterval, that a run over the whole
// queue is asked of the scheduler thread and held back (mainSoon and
// fullAsked after a pass: it comes SchedMinInterval after the last run,
// and arm wakes for it), and none is queued: a periodic tick before it
// asks that run again, merged into it, and changes nothing but the
// clocks its pass moves (stillPass), so arm asks no wake-up for it.
// (The eager reference, eagerCalc, wakes for every tick as before.)
func (p *Policy) heldFull() bool {
	return p.minInt > 0 && !p.eagerCalc && !p.stepAll && p.mainSoon && p.fullAsked && !p.mainPending
}
