package slurm

import (
	"math/bits"
	"slices"
)

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
// cycle that starts or plans a job unless CPUs are free and a waiting
// job may fit them (mayFit, for which arm wakes at the first check with
// work anyway): it moves the last tick (lastFull, lastSched) and the
// last check (bfLast, evAt) up to its instant, which the next pass moves
// further on the same grids. stillUntil finds the first calculation at
// which a run or a new priority may happen, and arm asks no wake-up
// before it; the first catch-up after (an
// event, or that wake-up) makes the pass of the last one passed over
// (stillPass) before anything reads those clocks (OnEnd's arm does,
// before its pass), then the calculations, which catchUp passes over as
// stillAt or cycle lets it. With fair share weighted a priority may move
// at any calculation: when both flags it would set are set, the
// calculations pass over (their priorities computed at the last, as
// quiet's); under Fair Tree, otherwise, until the first at which a
// user's rank moves, which fsChange finds by looking ahead (a job running
// 2^40 s on the whole machine, another waiting, woke Run at every
// calculation: 3.7·10^9 times); under classic fair share, whose factors
// move with usage at any calculation, until the first at which a waiting
// job's priority changes, which csChange finds the same way (the same
// 3.7·10^9 wake-ups; 1,045 now). TestLazyCalcSame* draw
// SchedMinInterval against a wake-up at every calculation (eagerCalc);
// TestStillSpanWakes, TestStillSpanFairShare and TestStillSpanClassic
// bound the wake-ups.

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
	fs := !p.stillLazy && p.cfg.WeightFairshare > 0
	if fs && p.fsStill() < fsLook {
		// A stretch just begun: looking ahead would cost more than the
		// wake-ups it spares (most end within a few calculations), and
		// so would the grids' search below (0.7% of the instructions of
		// KTH-SP2 under testdata/slurm.conf made Fair Tree).
		return p.nextCalc
	}
	// The next calculation is most often a tick that matters: one
	// division tells, and the grid is not searched.
	next, t := p.nextCalc, int64(never)
	ticks := p.mainPending || p.fullPending && !(p.mainSoon && p.fullAsked)
	// A backfill check is no reason to wake (it was, and woke Run 1,197
	// times rather than 1,060 on TestStillSpanWakes' site with checks off
	// the grid, changing no schedule): a check that could start or plan
	// a job has CPUs free and a waiting job that may fit them (arm's
	// mayFit), and then arm wakes for it anyway; without those a cycle
	// returns at once (backfill: nothing free, or less than the least a
	// waiting job asks), and what it leaves (bfDirty, noFit, bfStill,
	// bfLast on the same grid, evAt) is read only under mayFit or made
	// again by the next event or check while jobs wait; stillPass moves
	// bfLast and evAt as the checks passed over would have.
	if ticks && next%p.schedInt == 0 {
		return next
	}
	if ticks {
		t = p.calcOnGrid(p.schedInt, 0)
	}
	switch {
	case t == p.nextCalc || p.stillLazy:
	case fs && p.cfg.ClassicFairshare:
		// Classic: a factor moves with usage at any calculation, and a
		// priority with it and its age: looking ahead finds the first
		// that changes one.
		t = min(t, p.csChange(t))
		p.stillLazy = t > p.nextCalc
	default:
		t = min(t, p.prioChange())
		if fs && t > p.nextCalc {
			// Fair Tree: a factor moves only with its user's rank.
			// Until one moves, the calculations compute the priorities
			// they have: the last one due computes them (catchUp).
			t = min(t, p.fsChange(t))
			p.stillLazy = t > p.nextCalc
		}
	}
	t = max(t, p.nextCalc)
	p.stillSkip = t > p.nextCalc
	return t
}

// stillPass makes, at a catch-up, the pass of the last calculation
// before now that stillUntil passed over (tv, after the last pass): the
// periodic tick and the backfill checks move up to tv, as its pass would
// have moved them, with no run or cycle (see above).
//
// No test tells it is there: with it made a no-op, every test of the
// package passes, and TestStillSpanSearch too on seeds 1–8 (600 rounds
// each), as every mutation of it did in the last two reviews. Its clocks
// are read before the next pass moves them again only where they cannot
// differ in effect:
//   - the pass's mainDue moves lastFull and lastSched to the tick at or
//     before now, which is at or after tv's, and asks a run only at a
//     tick at now, which tv's pass cannot have moved it past; before
//     that, loopRan reads them (loopDue) only with a run queued, and
//     then arm woke for every tick, so none lay between the last pass
//     and now for stillPass to move them to;
//   - the pass's bfChecks steps the same checks (while jobs wait they
//     stay on bfLast's grid) to the same bfLast, and sets evAt from
//     evLast as bfCycled(tv) did, unless an event came at tv itself:
//     none does, as a priority that changes at tv makes tv a wake-up
//     (with stillLazy, priorities wait for the catch-up's last
//     calculation, after stillPass, and its event sets evAt as one
//     after the check would; the checks passed over had no CPU to give,
//     see stillUntil); stillUntil reads bfLast modulo BackfillInterval
//     only;
//   - OnEnd's arm, before its pass, reads them stale and may ask a
//     wake-up at now+1 rather than later: its pass finds nothing due
//     that the arm with the clocks moved would not have asked at or
//     before now+1, and arms as the end's pass did.
//
// It is kept so that the clocks are those of a wake-up at every
// calculation, whatever reads them next.
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
		// A check with no cycle: none had work (bfDirty false) or could
		// start or plan a job (no CPU free for any waiting job: arm wakes
		// for a check otherwise). bfDirty stays as it is until the next
		// cycle or event, as quiet's calculations leave it.
		p.bfCycled(tv)
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
// waiting job's priority (never: none), fair share not weighted, or its
// users' ranks as they are now (Fair Tree: see fsChange): a priority
// then changes only by age, which only rises (every term and the sum are
// monotone in it, float64 rounding included), so a job's first change is
// found by bisection over the calculations to the one where its age
// factor is 1, its last. (Under Run the ranks are those a job's priority
// was computed with: every association is in the tree from the start,
// and the ranks move only with usage, at calculations, whose last
// computes the priorities.) The queue is walked from its end, where the
// youngest jobs most often wait: one whose priority changes at the next
// calculation ends the walk.
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

// fsLook is the calculations since a job last started or ended
// (fsStill) from which stillUntil looks ahead (fsChange, csChange) with
// fair share weighted: the fewest it looks ahead at once.
const fsLook = 64

// fsStill is the calculations since the first stillUntil that asked it
// after a job last started or ended.
func (p *Policy) fsStill() int64 {
	if !p.fsSeen || p.fsRun != p.runGen {
		p.fsSeen, p.fsRun, p.fsStart = true, p.runGen, p.nextCalc
	}
	return (p.nextCalc - p.fsStart) / p.calcPeriod
}

// fsChange is, under Fair Tree with fair share weighted, the first
// calculation in [nextCalc, limit) at which some user's rank may differ
// from its rank now (limit if none does), and never if none ever does
// until a job starts or ends. The factors are the ranks, and the usage
// they come from goes on, while no job starts or ends, by calculations
// that read nothing else (catchUp leaves it to none but the usage of
// the running jobs, and an end's, which a calculation adds): so it looks
// ahead, making each calculation's usage and ranks as a wake-up would,
// and then puts every association back as it was. Once the tree's state
// at a fold of the decay scale is the last fold's, bit for bit, the
// calculations between repeat for ever (cycle): none changes a rank
// then. A look ahead goes no further than the calculations since a job
// last started or ended (fsStill), at least fsLook: so it costs no more
// than those, which woke Run each, and the wake-ups of a still stretch
// are a logarithm of its length. Without decay the state never repeats:
// it reads the usage in closed form instead of stepping (flatLook, the
// same answer). Its answer holds until a job starts or ends, or the
// calculations pass it.
func (p *Policy) fsChange(limit int64) int64 {
	if p.fsLooked && p.fsGen == p.runGen && p.fsFrom <= p.nextCalc &&
		(p.nextCalc < p.fsUntil && (p.fsHit || limit <= p.fsUntil) || p.nextCalc == p.fsUntil && p.fsHit) {
		return p.fsUntil
	}
	t, sv, P := p.tree, &p.fsSave, p.calcPeriod
	sv.save(p)
	t.ranks()
	sv.rank0 = sv.rank0[:0]
	for _, i := range t.act {
		sv.rank0 = append(sv.rank0, t.ft[i].rank)
	}
	end := limit
	if n := max(fsLook, p.fsStill()); (end-p.nextCalc)/P > n {
		end = p.nextCalc + n*P
	}
	res, hit := end, false
	folds, seen := t.folds, false
	if p.flatOK() { // without decay: segments, not steps (stillflat.go)
		res, hit = p.flatLook(end)
		end = p.nextCalc
	}
	for c, k := p.nextCalc, 0; c < end; c, k = c+P, k+1 {
		if p.lookCut(k) {
			res = c
			break
		}
		p.calcUsage(c)
		if len(t.moved) > 0 {
			t.reorder()
		}
		if !t.ranksOK {
			t.fairTree()
			for k, i := range t.act {
				if t.ft[i].rank != sv.rank0[k] {
					hit = true
					break
				}
			}
			if hit {
				res = c
				break
			}
		}
		if t.folds != folds {
			folds = t.folds
			sv.state = t.state(sv.state[:0])
			if seen && slices.Equal(sv.state, sv.prev) {
				res = never // the cycle just made repeats
				break
			}
			sv.state, sv.prev, seen = sv.prev, sv.state, true
		}
	}
	sv.restore(p)
	p.fsLooked, p.fsGen, p.fsFrom, p.fsUntil, p.fsHit = true, p.runGen, p.nextCalc, res, hit
	return res
}

// csChange is fsChange under classic fair share (with fair share
// weighted): the first calculation in [nextCalc, limit) at which some
// waiting job's priority differs from the one it has (limit if none
// does), and never if none ever does until a job starts, ends, arrives
// or leaves. Classic's factors (2^(−UE/S), UE the effective usage the
// accounts get at every calculation and a user when a priority reads it)
// move with usage at any calculation, and a priority with them and its
// age: so it looks ahead as fsChange does, computing at each calculation
// every waiting job's priority as a wake-up would (calc), and then puts
// the tree back as it was, effective usage and the count of
// calculations (tree.gen) included. Once the tree's state at a fold of
// the decay scale is the last fold's and no waiting job's age factor
// moved since that fold (each at 1, or age unweighted), the calculations
// between repeat for ever with the same priorities, none of which
// changed (without decay, which never repeats, flatLook finds the
// same answer in closed form). Its answer holds until a job starts or
// ends (runGen), the waiting jobs change (queueGen), or the
// calculations pass it. A job
// running 2^40 s on the whole machine with another waiting woke Run at
// every calculation: 3.7·10^9 times (TestStillSpanClassic).
func (p *Policy) csChange(limit int64) int64 {
	if p.fsLooked && p.fsGen == p.runGen && p.csQueue == p.queueGen && p.fsFrom <= p.nextCalc &&
		(p.nextCalc < p.fsUntil && (p.fsHit || limit <= p.fsUntil) || p.nextCalc == p.fsUntil && p.fsHit) {
		return p.fsUntil
	}
	t, sv, P := p.tree, &p.fsSave, p.calcPeriod
	w := p.weights()
	// aged: the first calculation from which no waiting job's age factor
	// moves (it is 1 from PriorityMaxAge after its submission on).
	aged := int64(-never)
	if w.age > 0 {
		for _, r := range p.queue {
			if !(r.out && (r.running || r.gone)) {
				aged = max(aged, r.submit+p.maxAge)
			}
		}
	}
	sv.save(p)
	end := limit
	if n := max(fsLook, p.fsStill()); (end-p.nextCalc)/P > n {
		end = p.nextCalc + n*P
	}
	res, hit := end, false
	folds, seen, fold := t.folds, false, int64(0)
	if p.flatOK() { // without decay: segments, not steps (stillflat.go)
		res, hit = p.flatLook(end)
		end = p.nextCalc
	}
	for c, k := p.nextCalc, 0; c < end && !hit; c, k = c+P, k+1 {
		if p.lookCut(k) {
			res = c
			break
		}
		p.calcUsage(c)
		for _, r := range p.queue { // reprioSlow's walk
			if !(r.out && (r.running || r.gone)) && w.full(p, r, c) != r.prio {
				hit, res = true, c
				break
			}
		}
		if !hit && t.folds != folds {
			folds = t.folds
			sv.state = t.state(sv.state[:0])
			if seen && fold+P >= aged && slices.Equal(sv.state, sv.prev) {
				res = never // the cycle since fold repeats, ages and all
				break
			}
			sv.state, sv.prev, seen, fold = sv.prev, sv.state, true, c
		}
	}
	sv.restore(p)
	p.fsLooked, p.fsGen, p.fsFrom, p.fsUntil, p.fsHit = true, p.runGen, p.nextCalc, res, hit
	p.csQueue = p.queueGen
	return res
}

// lookCut reports, before calculation k of a look ahead (from 0), once
// every cutEvery calculations, that Run's context is done: the look then
// ends before it, its answer exact for the calculations it stepped, and
// Run returns the context's error. A look steps as many calculations as
// the stretch has gone, up to a repeat (millions under the default
// half-life), and ran them all after a cancellation
// (TestStillSpanLookCancel); flatLook hears it the same way.
func (p *Policy) lookCut(k int) bool {
	return k&(cutEvery-1) == cutEvery-1 && p.ctx != nil && p.ctx.Err() != nil
}

// fsSave is what a calculation's usage and a ranking change of the
// tree and the policy, for fsChange and csChange to put back.
type fsSave struct {
	usage, key     []float64
	efctv          []float64 // classic's effective usage, and efctvOK
	efctvOK        []bool
	gen            int64 // classic's count of calculations
	pos            []int
	rank, rank0    []int32
	moved          []bool
	tmoved         []int
	pend           []pendingUse
	lastRan, calcs int64
	scale          float64
	folds          int64
	ranksOK, stale bool
	lo, hi         int
	state, prev    []uint64
}

func (sv *fsSave) save(p *Policy) {
	t := p.tree
	sv.usage, sv.moved = sv.usage[:0], sv.moved[:0]
	for _, i := range t.act {
		sv.usage, sv.moved = append(sv.usage, t.a[i].usage), append(sv.moved, t.a[i].moved)
	}
	// A calculation changes classic's effective usage, and Fair Tree's
	// keys, order and ranks: each algorithm's own.
	if p.cfg.ClassicFairshare {
		sv.efctv, sv.efctvOK = sv.efctv[:0], sv.efctvOK[:0]
		for _, i := range t.act {
			sv.efctv, sv.efctvOK = append(sv.efctv, t.a[i].efctv), append(sv.efctvOK, t.a[i].efctvOK)
		}
	} else {
		sv.key, sv.pos, sv.rank = sv.key[:0], sv.pos[:0], sv.rank[:0]
		for _, i := range t.act {
			sv.key, sv.pos, sv.rank = append(sv.key, t.ft[i].levelFS), append(sv.pos, t.a[i].pos), append(sv.rank, t.ft[i].rank)
		}
	}
	sv.gen = t.gen
	sv.tmoved = append(sv.tmoved[:0], t.moved...)
	sv.pend = append(sv.pend[:0], p.pendingUse...)
	sv.lastRan, sv.calcs = p.lastRan, p.calcs
	sv.scale, sv.folds, sv.ranksOK, sv.stale, sv.lo, sv.hi = t.scale, t.folds, t.ranksOK, t.allStale, t.lo, t.hi
}

func (sv *fsSave) restore(p *Policy) {
	t := p.tree
	for k, i := range t.act {
		t.a[i].usage, t.a[i].moved = sv.usage[k], sv.moved[k]
	}
	if p.cfg.ClassicFairshare {
		for k, i := range t.act {
			t.a[i].efctv, t.a[i].efctvOK = sv.efctv[k], sv.efctvOK[k]
		}
	} else {
		for k, i := range t.act {
			a := &t.a[i]
			t.ft[i].levelFS, a.pos, t.ft[i].rank = sv.key[k], sv.pos[k], sv.rank[k]
			if i != 0 {
				t.a[a.parent].children[a.pos] = i
			}
		}
	}
	t.moved = append(t.moved[:0], sv.tmoved...)
	t.gen = sv.gen
	p.pendingUse = append(p.pendingUse[:0], sv.pend...)
	p.lastRan, p.calcs = sv.lastRan, sv.calcs
	t.scale, t.folds, t.ranksOK, t.allStale, t.lo, t.hi = sv.scale, sv.folds, sv.ranksOK, sv.stale, sv.lo, sv.hi
}
