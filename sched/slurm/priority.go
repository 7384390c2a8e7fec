package slurm

import (
	"math"
	"slices"
)

// priority is _get_priority_internal for a job with one partition: the
// weighted factors summed in Slurm's order as float64 (age, assoc, fair
// share, job size, partition, QOS), at least 1 (0 is for held jobs),
// truncated to an integer and capped at 2^32−1. The job size, partition
// and QOS terms never change for a job: consts computed them.
func (p *Policy) priority(r *jobRec, now int64) int64 {
	w := p.weights()
	if w.slow {
		return w.full(p, r, now)
	}
	return w.fast(r, now)
}

// weights is what priority reads of the configuration and the tree,
// read once for a whole calculation.
type weights struct {
	age, assoc, fs float64
	maxAge         int64
	maxAgeF        float64 // maxAge as float64, the age factor's divisor
	classic        bool
	// Fair Tree: the weighted factor of a user by its rank (the tree's
	// table), and the users' ranks (current: weights ranked them).
	fsByRank []float64
	ft       []ftNode
	// slow: a term other than age, Fair Tree's and the job's constants
	// is weighted (the assoc factor, classic fair share): priority hands
	// the job to full, which sums every term.
	slow bool
	ok   bool // the configuration's part is made (weights)
}

// weights returns the policy's weights, the tree's part brought up to
// date (the users ranked if the order changed); the configuration's part
// is made once, rather than at every arrival and calculation.
func (p *Policy) weights() *weights {
	w, c := &p.w, &p.cfg
	if !w.ok {
		*w = weights{age: float64(max(c.WeightAge, 0)), fs: float64(c.WeightFairshare),
			maxAge: p.maxAge, maxAgeF: float64(p.maxAge), classic: c.ClassicFairshare, ok: true}
	}
	w.assoc = float64(c.WeightAssoc)
	if p.tree.maxPrio <= 0 {
		w.assoc = 0 // no association has a priority: the factor is 0
	}
	if w.fs > 0 && !w.classic {
		// fsTable's tests first: most calls (an arrival between two
		// calculations) find the ranks and the table current.
		t := p.tree
		if !t.fsCurrent(w.fs) {
			t.fsTable(w.fs)
		}
		w.fsByRank, w.ft = t.fsByRank, t.ft
	}
	w.slow = w.assoc > 0 || (w.fs > 0 && w.classic)
	return w
}

// fast is full without the terms that are 0 when !w.slow (an assoc term
// of 0 adds nothing to the age term, at least 0), small enough to inline
// into a calculation's loop over the waiting jobs.
func (w *weights) fast(r *jobRec, now int64) int64 {
	age := w.age // the age factor is 1 from PriorityMaxAge on
	if diff := max(now-r.submit, 0); diff < w.maxAge {
		age = float64(diff) / w.maxAgeF * w.age
	}
	var fs float64
	if w.fsByRank != nil {
		fs = w.fsByRank[w.ft[r.assoc].rank]
	}
	return prioCap(age + fs + r.jsW + r.partW + r.qosW)
}

// full sums the weighted factors in Slurm's order; a term whose weight
// is 0 is 0, as its factor times the weight would be.
func (w *weights) full(p *Policy, r *jobRec, now int64) int64 {
	var age, assocF, fs float64
	if w.age > 0 {
		if diff := max(now-r.submit, 0); diff < w.maxAge {
			age = float64(diff) / w.maxAgeF * w.age
		} else {
			age = w.age // the factor is 1
		}
	}
	if w.fsByRank != nil {
		fs = w.fsByRank[w.ft[r.assoc].rank]
	} else if w.fs > 0 {
		fs = p.tree.classicFactor(r.assoc) * w.fs
	}
	if w.assoc > 0 {
		assocF = float64(p.tree.a[r.assoc].prio) / float64(p.tree.maxPrio) * w.assoc
	}
	return prioCap(age + assocF + fs + r.jsW + r.partW + r.qosW)
}

// prioCap is a priority sum at least 1 (0 is for held jobs), truncated
// to an integer and capped at 2^32−1.
func prioCap(prio float64) int64 {
	if prio < 1 {
		prio = 1
	}
	return min(int64(prio), 1<<32-1)
}

// consts computes r's weighted job size, partition and QOS factors, and
// the CPUs its backfill reservation holds.
func (p *Policy) consts(r *jobRec) {
	c := &p.cfg
	var js, partF, qos float64
	if c.WeightJobSize > 0 {
		js = p.jobSize(r)
	}
	if c.WeightPartition > 0 && p.maxPartJF > 0 {
		partF = float64(p.parts[r.part].PriorityJobFactor) / float64(p.maxPartJF)
	}
	if c.WeightQOS > 0 && p.qosMax > 0 {
		qos = float64(c.QOS[r.qos]) / float64(p.qosMax)
	}
	r.jsW, r.partW, r.qosW = js*float64(c.WeightJobSize), partF*float64(c.WeightPartition), qos*float64(c.WeightQOS)
	r.whole = p.wholeNodes(r) // the machine's too: sync calls consts when it changes
}

// jobSize is the job-size factor without SMALL_RELATIVE_TO_TIME: the
// mean of the node fraction min_nodes/N and the CPU fraction CPUs/C
// (their complements with PriorityFavorSmall), in [0, 1].
func (p *Policy) jobSize(r *jobRec) float64 {
	if p.nodes <= 0 || p.cpus <= 0 {
		return 0
	}
	n, c := float64(p.nodes), float64(p.cpus)
	m, k := float64(r.minNodes), float64(r.cpus)
	var js float64
	if p.cfg.FavorSmall {
		js = (n - m) / n
		if r.cpus > 0 {
			js = (js + (c-k)/c) / 2
		}
	} else {
		js = m / n
		if r.cpus > 0 {
			js = (js + k/c) / 2
		}
	}
	return min(max(js, 0), 1)
}

// less is sort_job_queue2's order: partition PriorityTier descending,
// priority descending, submission ascending, job ID ascending. It is
// -1, 0 or 1 by plain comparisons (cmp.Compare's NaN tests, for floats,
// made it too costly to inline): the loops over the queue call it.
func less(a, b *jobRec) int {
	var x, y int64 // the first key that differs, as ascending
	switch {
	case a.tier != b.tier:
		x, y = b.tier, a.tier
	case a.prio != b.prio:
		x, y = b.prio, a.prio
	case a.submit != b.submit:
		x, y = a.submit, b.submit
	default:
		x, y = a.id, b.id
	}
	if x < y {
		return -1
	}
	if x > y {
		return 1
	}
	return 0
}

// enqueue adds a waiting job with its priority at submission.
func (p *Policy) enqueue(r *jobRec, now int64) {
	p.jobs.put(r)
	p.consts(r)
	r.prio = p.priority(r, now)
	if r.held == "" {
		p.minWait = min(p.minWait, r.cpus)
	}
	p.queueGen++
	if p.sorted {
		// slices.BinarySearchFunc(p.queue, r, less), less called
		// directly rather than through a func value.
		q := p.queue
		i, j := 0, len(q)
		for i < j {
			m := int(uint(i+j) >> 1)
			if less(q[m], r) < 0 {
				i = m + 1
			} else {
				j = m
			}
		}
		// slices.Insert by hand: one typed copy, not two (the second of
		// one pointer).
		q = append(q, nil)
		copy(q[i+1:], q[i:])
		q[i] = r
		p.queue = q
	} else {
		p.queue = append(p.queue, r)
	}
	p.changed(now, true)
}

// changed notes at now that the queue or the machine changed: a
// submission or an end (queued) queues a main scheduler run for the
// background loop (an end with an Epilog asks one at once); the next
// periodic run and backfill cycle have work.
func (p *Policy) changed(now int64, queued bool) {
	p.loopRan(now)
	if queued {
		if !p.mainPending {
			p.mainPending, p.mainAt = true, now
		}
	} else if !p.mainSoon {
		p.mainSoon, p.soonAt = true, now
	}
	p.fullPending, p.bfDirty = true, true
	p.noFit = false
	p.event(now)
}

// event notes a change of a job at now (Slurm's last_job_update), which
// gives the next backfill check work.
func (p *Policy) event(now int64) {
	if p.evAt == never {
		p.evAt = now
	}
	p.evLast = now
}

// sortQueue sorts the queue if it needs it, dropping the jobs that left
// it (started, ended, cancelled) once they are many; the loops over the
// queue skip those left.
func (p *Policy) sortQueue() {
	if !p.sorted || 8*p.left > len(p.queue) {
		p.compact()
	}
	if !p.sorted {
		if !sortNearly(p.queue, 4*len(p.queue)) {
			slices.SortFunc(p.queue, less)
		}
		p.queueGen++
		p.sorted = true
	}
}

// sortNearly sorts q by less by insertion if that takes at most budget
// moves, and reports whether it did; if not, q is left a permutation for
// a sort to finish. A calculation's new priorities mostly leave the
// queue a few moves from its order, which insertion reaches in one pass
// where a general sort partitions. less is a total order (the IDs of
// the waiting jobs differ), so either sort gives the same queue.
func sortNearly(q []*jobRec, budget int) bool {
	for i := 1; i < len(q); i++ {
		r, j := q[i], i
		for j > 0 && less(r, q[j-1]) < 0 {
			j--
		}
		if j == i {
			continue
		}
		if budget -= i - j; budget < 0 {
			return false
		}
		copy(q[j+1:i+1], q[j:i])
		q[j] = r
	}
	return true
}

// begin sets the clocks at the first job the policy sees.
func (p *Policy) begin(now int64) {
	if p.started {
		return
	}
	p.started = true
	// slurmctld started at time 0: its threads tick on grids from 0 (the
	// background loop's last periodic run is its last multiple of
	// SchedInterval, at 0 its start); the usage read is that of now.
	p.lastRan = now
	p.nextCalc = floorTo(now, p.calcPeriod) + p.calcPeriod
	p.lastFull = floorTo(now, p.schedInt)
	p.lastSched, p.lastMain = p.lastFull, -1<<40
	p.bfLast = floorTo(now, p.bfInt)
	p.evAt, p.evLast = never, p.bfLast-1
	p.mainPending, p.mainSoon, p.fullPending, p.bfWaiting, p.bfDirty, p.fullAsked = false, false, false, false, false, false
	if p.cfg.ClassicFairshare {
		p.tree.classicAccounts()
	} else {
		p.tree.fairTree()
	}
}

// catchUp runs every PriorityCalcPeriod calculation due by now. While no
// job runs or waits, the calculations that would have happened are
// folded into the last one: decay composes (d^a·d^b = d^(a+b)) and no
// usage is added.
func (p *Policy) catchUp(now int64) {
	lazy := false
	if p.stillSkip || p.tickSkip {
		// The pass of the last calculation or tick Run passed over; their
		// priorities are read by nothing with stillLazy (stillspan.go).
		lazy = p.stillSkip && p.stillLazy
		p.stillPass(now)
	}
	// Most calls find no calculation due: lazyCalc (fields set at Run's
	// start) is read only past that test.
	if !p.started || now < p.nextCalc {
		return
	}
	lazy = lazy || p.lazyCalc()
	if p.jobs.len() == 0 {
		k := (now - p.nextCalc) / p.calcPeriod
		p.nextCalc += k * p.calcPeriod
	}
	// The calculations after the first read and compute nothing but the
	// tree's usage (their priorities are not computed, or no job waits):
	// whole cycles of the decay scale may be passed over (cycle).
	cycles := !p.stepAll && (lazy || p.jobs.len() == len(p.running))
	folds := p.tree.folds
	p.cycAt = -1
	for i := 0; p.nextCalc <= now; i++ {
		// Under Run's lazy calculations only the last of a run of due
		// ones computes priorities: nothing read those of the others
		// (see quiet).
		t := p.nextCalc
		p.nextCalc += p.calcPeriod
		prios := p.nextCalc > now || !lazy
		p.calc(t, prios)
		if i == 0 && cycles && p.cfg.WeightFairshare > 0 && p.nextCalc+p.calcPeriod <= now && p.flatOK() {
			// Without decay: the usage of all but the last in closed form
			// (stillflat.go).
			p.leap(now)
		}
		if cycles && p.tree.folds != folds {
			folds = p.tree.folds
			p.cycle(i, now)
		}
		// After the second calculation, see whether the ones still due
		// before the last can change nothing.
		if i == 1 && p.nextCalc+p.calcPeriod <= now && !p.stepAll && p.stillAt() {
			p.skipTo(now)
		}
		// Under Run, a catch-up that cannot skip hears an interrupt: Run
		// then returns the context's error, never this schedule.
		if i&(cutEvery-1) == cutEvery-1 && p.ctx != nil && p.ctx.Err() != nil {
			p.cut = true
			return
		}
	}
}

// cycle is called after calculation i of a catch-up to now, which folded
// the decay scale in (tree.decay): the scale is 1 again. From there on
// each calculation of the catch-up but the last is the same map of the
// tree's state (the same running jobs add the same usage at the same
// scales, Δ is PriorityCalcPeriod, no end's usage waits, and nothing
// reads a priority: see catchUp), so if the state is the one the last
// fold left, bit for bit, every later cycle of the scale is the one just
// stepped, and the next one would end in this state again, as would
// every whole cycle after it: they are passed over, leaving their time,
// as skipTo does, and the rest is stepped. The state is every active
// association's usage, effective usage, key, rank, place among its
// siblings and moved mark: all that a calculation reads or writes of
// the tree but its counters.
//
// With PriorityWeightFairshare weighted, usage is read and stillAt never
// passes over a calculation: a span of a user-supplied length (a job
// running 2^40 seconds alone) cost one calculation per period. Usage
// not added to decays by a factor of 10^200 a cycle (to 0 within a few),
// and usage added to converges: the state a fold leaves is most often
// the last one's from the second or third fold of a span on, so that a
// span costs a few cycles at most (a cycle is ln(10^200)/ln(1/d^P)
// periods: 1.3·10^6 under the defaults), whatever its length.
func (p *Policy) cycle(i int, now int64) {
	t := p.tree
	s := t.state(p.cycNew[:0])
	if p.cycAt >= 0 && slices.Equal(s, p.cyc) {
		m := int64(i - p.cycAt) // the calculations of a cycle
		if rest := (now-p.nextCalc)/p.calcPeriod + 1; p.nextCalc <= now && rest > m {
			k := (rest - 1) / m * m // whole cycles, the last calculation still to step
			p.nextCalc += k * p.calcPeriod
			p.lastRan = p.nextCalc - p.calcPeriod
			p.skips += k
			p.cycSkips += k
			if p.cfg.ClassicFairshare {
				t.gen += k
			}
		}
	}
	p.cyc, p.cycNew, p.cycAt = s, p.cyc, i
}

// state appends to s the tree's state that cycle compares (see there).
func (t *tree) state(s []uint64) []uint64 {
	for _, k := range t.act {
		a, f := &t.a[k], &t.ft[k]
		ok := uint64(0)
		if a.efctvOK {
			ok = 1
		}
		if a.moved {
			ok |= 2
		}
		s = append(s, math.Float64bits(a.usage), math.Float64bits(a.efctv), math.Float64bits(f.levelFS),
			uint64(f.rank), uint64(a.pos), ok)
	}
	return append(s, math.Float64bits(t.scale), uint64(len(t.moved)))
}

// cutEvery is how often (in calculations) a catch-up under Run looks at
// its context.
const cutEvery = 1 << 16

// stillAt reports that the calculations after the second of a catch-up
// but the last leave unchanged all that anything reads, so that skipTo
// may pass over them. Their usage is read only by the fair-share factor:
// with PriorityWeightFairshare 0 it is read by nothing (classic's
// effective usage is read by that factor alone). Their priorities, where
// they compute any, change only by age, which only rises, so the last
// calculation gives every waiting job the priority stepping would have,
// and changes one if and only if one of those passed over would have: the
// flags a change sets (fullPending, bfDirty) and the order are the same.
// What may differ is when the changes were seen (evAt, evLast) and
// whether the order went out and came back between (sorted,
// fullPending), and nothing reads those where it can differ:
//
//   - Under Run, a calculation computes priorities while jobs wait only
//     without lazyCalc, and then Run wakes at every calculation (arm,
//     quiet): a catch-up with jobs waiting is never long enough to skip.
//   - A plain Scheduler's catch-up runs at a pass. The main scheduler
//     runs only after an arrival or an end, which sets fullPending and
//     the event times to the pass's own; backfill runs at the first pass
//     at or after its check whatever the event times, which it reads
//     only as never or not when no job waited after the last pass, and
//     a pass with jobs waiting that did not wait then has an arrival.
//
// So the age guard stillAt had (step while some waiting job's age factor
// is below 1) changed no schedule, and is gone: a review found its
// mutants equivalent, and random runs under Run, eager and lazy, and as a
// plain Scheduler with and without KillAtEstimate (whose passes at
// expiries have no arrival or end) start, reserve and end every job as
// stepping does (TestQuietSpanSkipSame, where plain runs now skip while
// ages rise). A calculation's only other trace is its time (lastRan) and
// the count of classic calculations, which skipTo keeps as stepping
// would.
//
// A span of a user-supplied length between events (a job running 2^40
// seconds alone) cost one calculation per PriorityCalcPeriod: minutes,
// and a run past 2^40 did not end.
func (p *Policy) stillAt() bool {
	return p.cfg.WeightFairshare <= 0
}

// skipTo passes over the calculations due by now but the last (stillAt
// said they change nothing read), leaving what stepping through them
// would: the last one's time, and classic's count of calculations.
func (p *Policy) skipTo(now int64) {
	k := (now - p.nextCalc) / p.calcPeriod // the calculations passed over
	if k <= 0 {
		return
	}
	p.nextCalc += k * p.calcPeriod
	p.lastRan = p.nextCalc - p.calcPeriod
	p.skips += k
	if p.cfg.ClassicFairshare {
		p.tree.gen += k
	}
}

// lazyCalc: the calculations Run wakes for only while their priorities
// may start a job (see quiet) leave the priorities of those it does not
// wake for to the last one due when something happens. Without
// SchedMinInterval (which reads the time of the periodic runs those
// wake-ups would make), the schedules are the same under either
// algorithm: classic fair share computes the accounts' effective usage at
// every calculation, priorities or not, and a user's when a priority
// reads it, so the last calculation's priorities read what a wake-up at
// each would have (TestLazyCalcSame* draw both).
func (p *Policy) lazyCalc() bool {
	return p.observed && p.minInt == 0 && !p.eagerCalc
}

// quiet reports, under Run, that no job can start or get a reservation
// until a job arrives or ends: jobs wait, some run (so one will end),
// no main scheduler run is queued or asked, and no waiting job fits in
// the free CPUs (none free, or the last backfill cycle found none fits;
// only an arrival or an end, which clears noFit, frees CPUs or adds a
// job). A calculation then changes nothing but usage and priorities
// until that event: the periodic main scheduler runs and backfill
// cycles it would bring start and reserve nothing, and the event makes
// every flag they read (fullPending, bfDirty, noFit, the event times)
// what the calculation would have. So Run does not wake for it, and
// the event's catchUp computes the priorities once, at the last
// calculation's time, from the same usage (lazyCalc).
func (p *Policy) quiet() bool {
	return p.lazyCalc() && len(p.running) > 0 && (p.freeAfter == 0 || p.noFit) &&
		!p.mainPending && !p.mainSoon && !p.fullAsked
}

// calc is one run of the decay thread at t (_decay_thread): classic
// computes the accounts' effective usage first, then usage decays by
// d^Δ and the running jobs add theirs; Fair Tree then ranks the users;
// every waiting job gets its priority again.
func (p *Policy) calc(t int64, prios bool) {
	p.calcUsage(t)
	// Fair Tree's order and ranks follow when a factor is read (the
	// tree's ranks): a calculation with no job waiting leaves them to the
	// next that has one.
	if len(p.queue) == 0 || !prios {
		return
	}
	p.reprio(t)
}

// calcUsage is calc's part on the tree: the usage of the period, and
// the calculation's time (fsChange looks ahead with it).
func (p *Policy) calcUsage(t int64) {
	if p.cfg.ClassicFairshare {
		p.tree.classicAccounts()
	}
	// Fair Tree: the ends since the last calculation add their usage now,
	// before the decay, as Slurm added it at the end (see ended).
	for _, u := range p.pendingUse {
		p.tree.addUsage(u.assoc, u.use)
	}
	p.pendingUse = p.pendingUse[:0]
	if dt := t - p.lastRan; dt > 0 {
		// The decay of the period is that of the jobs that ran through
		// it (use): one Pow for both, and for most periods none.
		if dt != p.powDt[0] {
			p.powDt[0], p.pow[0] = dt, math.Pow(p.decayF, float64(dt))
		}
		f := p.pow[0]
		if f < math.SmallestNonzeroFloat64 {
			f = math.SmallestNonzeroFloat64
		}
		if f != 1 {
			p.tree.decay(f)
		}
		// A job that ran through the period adds dt·d^dt·CPUs, use's
		// product in use's order, the first two shared.
		whole := float64(dt) * p.pow[0]
		run, from := p.running, p.lastRan
		for i := 0; i < len(run); i++ {
			// The jobs that ran through the period in one loop that calls
			// nothing; one that started since through accrue.
			if i += p.tree.addWhole(run[i:], from, whole); i < len(run) {
				p.accrue(run[i], t)
			}
		}
	}
	p.lastRan = t
	p.calcs++
}

// reprio is calc's part on the waiting jobs: their priorities at t, and
// what a change brings.
func (p *Policy) reprio(t int64) {
	w := p.weights()
	var inOrder bool
	var changes int64 // nonzero once a priority changed
	if w.slow {
		inOrder, changes = p.reprioSlow(w, t)
	} else {
		inOrder, changes = w.reprioFast(p.queue, t)
	}
	if changes != 0 { // some priority moved
		p.event(t)
		if p.sorted && inOrder {
			p.dropLeft()
			p.sameOrder(t)
			return
		}
		p.sorted = false
		// A new order matters to the main scheduler and backfill only if
		// some job fits in the free CPUs; until a job ends or arrives,
		// none does if none did at the last cycle.
		// It queues no main scheduler run (the decay thread asks none);
		// the periodic run and backfill see it.
		p.fullPending, p.bfDirty = true, true
	}
}

// reprioFast gives every waiting job of queue its priority at t by
// w.fast (!w.slow), and reports whether they are still in order and
// whether some priority changed (nonzero). Its loop calls nothing and
// reads w's fields as locals, so that they stay in registers.
func (w *weights) reprioFast(queue []*jobRec, t int64) (inOrder bool, changes int64) {
	inOrder = true
	wage, maxAge, maxAgeF := w.age, w.maxAge, w.maxAgeF
	fsByRank, ft := w.fsByRank, w.ft
	var prev *jobRec // the last waiting job, its priority new
	for _, r := range queue {
		if r.out && (r.running || r.gone) {
			continue
		}
		age := wage // w.fast, its fields in locals
		if diff := max(t-r.submit, 0); diff < maxAge {
			age = float64(diff) / maxAgeF * wage
		}
		var fs float64
		if fsByRank != nil {
			fs = fsByRank[ft[r.assoc].rank]
		}
		np := prioCap(age + fs + r.jsW + r.partW + r.qosW)
		changes |= np ^ r.prio
		r.prio = np
		if prev != nil && inOrder {
			inOrder = inOrderAfter(prev, r)
		}
		prev = r
	}
	return inOrder, changes
}

// reprioSlow is reprioFast by w.full (w.slow).
func (p *Policy) reprioSlow(w *weights, t int64) (inOrder bool, changes int64) {
	inOrder = true
	var prev *jobRec
	for _, r := range p.queue {
		if r.out && (r.running || r.gone) {
			continue
		}
		np := w.full(p, r, t)
		changes |= np ^ r.prio
		r.prio = np
		if prev != nil && inOrder {
			inOrder = inOrderAfter(prev, r)
		}
		prev = r
	}
	return inOrder, changes
}

// inOrderAfter is less(prev, r) <= 0 by plain tests: a third of the
// neighbours tie on priority, and a call cost more than the tests.
func inOrderAfter(prev, r *jobRec) bool {
	switch {
	case prev.tier != r.tier:
		return prev.tier > r.tier
	case prev.prio != r.prio:
		return prev.prio > r.prio
	case prev.submit != r.submit:
		return prev.submit < r.submit
	default:
		return prev.id <= r.id
	}
}

// dropLeft drops the jobs that left the queue when the waiting ones kept
// their order through new priorities: the priorities of those that left
// were not recomputed, so they no longer sit in order, and enqueue's
// binary search needs the whole queue in order.
func (p *Policy) dropLeft() {
	if p.left > 0 {
		p.compact()
	}
}

// compact drops the jobs that left the queue (started, ended,
// cancelled).
func (p *Policy) compact() {
	// The jobs before the first that left stay where they are; the
	// others move down by index (append's stores cost more).
	q := p.queue
	k := 0
	for k < len(q) && !q[k].running && !q[k].gone {
		k++
	}
	for i := k + 1; i < len(q); i++ {
		if r := q[i]; !r.running && !r.gone {
			q[k] = r
			k++
		}
	}
	for i := k; i < len(q); i++ { // the few freed slots: stores, not clear's call
		q[i] = nil
	}
	p.queue, p.left = q[:k], 0
	p.queueGen++
}

// sameOrder is a calculation at t that changed priorities but not the
// order of the waiting jobs. The periodic main scheduler run and the
// backfill cycle it would bring are skipped when they provably start,
// reserve and charge nothing new, which is the common case and saves
// most of their runs:
//
//   - A periodic run is due anyway if something else changed since the
//     last (fullPending). Otherwise the last one saw this order, and since
//     no job ended, the free CPUs and nodes only shrank: it would start
//     nothing. Its only trace would be its time, which sched_min_interval
//     reads: so only without one.
//   - A backfill cycle is due anyway if something changed (bfDirty).
//     Otherwise the last cycle saw this order and these running jobs; if
//     it started no job and tried none, one now (under Run, at the next
//     check, within BackfillInterval of t) finds every job at the same
//     time, as no job ended meanwhile, so no CPUs came back before then,
//     and makes the same reservations, unless a job it left beyond
//     bf_window has entered it (bfBeyond). The first cycle that sorts the
//     running jobs by end (endsOK) is never skipped: their order is that
//     of the usage sums.
func (p *Policy) sameOrder(t int64) {
	if p.minInt > 0 {
		p.fullPending = true
	}
	if !(p.observed && p.endsOK && p.bfStill && t+p.bfInt+p.bfWin < p.bfBeyond) {
		p.bfDirty = true
	}
}

// floorTo is the last multiple of step at or before t.
func floorTo(t, step int64) int64 {
	f := t / step * step
	if f > t {
		f -= step
	}
	return f
}

// accrue adds job r's usage from the last calculation (or its start) to
// end: CPUs × Δ × d^Δ (_apply_new_usage).
func (p *Policy) accrue(r *jobRec, end int64) {
	if u := p.use(r, end); u > 0 {
		p.tree.addUsage(r.assoc, u)
	}
}

func (p *Policy) use(r *jobRec, end int64) float64 {
	from := max(r.start, p.lastRan)
	dt := max(end-from, 0)
	k := 0
	if r.start > p.lastRan {
		k = 1
	}
	if dt != p.powDt[k] { // most jobs ran the whole period: one Pow for them all
		p.powDt[k], p.pow[k] = dt, p.decayPow(dt)
	}
	return float64(dt) * p.pow[k] * float64(r.planCPUs()) // an exclusive job: its nodes' (billing)
}

// decayPow is math.Pow(p.decayF, float64(dt)), the same value, from a
// table for dt up to the calculation period: a job that started or ended
// within a period has its own Δ, whose Pow (some 250 instructions) was
// half of a calculation's usage of such a job; on SDSC-BLUE some 140k
// of them, over a few hundred Δs. A table entry 0 is one not computed yet
// (a Pow that underflows to 0 is computed again at each call).
func (p *Policy) decayPow(dt int64) float64 {
	if uint64(dt) >= uint64(len(p.powTab)) {
		if p.powTab != nil || dt < 0 {
			return math.Pow(p.decayF, float64(dt))
		}
		p.powTab = make([]float64, min(p.calcPeriod, 1<<12)+1)
		if dt >= int64(len(p.powTab)) {
			return math.Pow(p.decayF, float64(dt))
		}
	}
	v := p.powTab[dt]
	if v == 0 {
		v = math.Pow(p.decayF, float64(dt))
		p.powTab[dt] = v
	}
	return v
}

// ended records that job id ended (or was cancelled) at now: with
// EnforceLimits a running job adds its usage since the last calculation
// (priority_p_job_end).
func (p *Policy) ended(id, now int64) {
	r, ok := p.jobs.get(id)
	if !ok {
		return
	}
	// The calculations due by now first: a running job still counts as
	// running in them; and under Run's lazy calculations an observer told
	// of the end (a waiting job cancelled from outside, between passes)
	// reads the priorities a wake-up at each would have left. (Without
	// Run, the pass's catchUp follows a waiting job's end, as it did.)
	if r.running || p.observed {
		p.catchUp(now)
	}
	if r.running {
		p.freeAfter = -1
	} else {
		p.left++
	}
	p.jobs.del(id)
	if !r.running {
		p.queueGen++ // a waiting job cancelled
	}
	r.gone, r.out, r.ptr = true, true, nil
	p.runGen++
	if r.running && p.ns != nil {
		p.ns.release(r) // its GPUs, before the sweep of noteStart forgets its node
	}
	if r.running {
		switch {
		case !p.cfg.EnforceLimits:
			// Slurm charges a job at its end only when limits are
			// enforced: its usage since the last calculation is lost.
		case p.cfg.ClassicFairshare:
			p.accrue(r, now)
		default:
			u := p.use(r, now)
			if u <= 0 {
				break
			}
			// Fair Tree reads usage only at calculations: the usage of
			// an end waits for the next one, so that the ranks read
			// until then are those of the last calculation.
			p.pendingUse = append(p.pendingUse, pendingUse{r.assoc, u})
		}
		i := p.runIndex(r)
		// slices.Delete by hand: the one slot freed is cleared by a
		// store, not a call.
		run := p.running
		copy(run[i:], run[i+1:])
		run[len(run)-1] = nil
		p.running = run[:len(run)-1]
	}
	p.changed(now, !r.running || !p.cfg.Epilog)
}

// pendingUse is the last usage of a job that ended, for the next
// calculation.
type pendingUse struct {
	assoc int
	use   float64
}
