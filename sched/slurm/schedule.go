package slurm

import (
	"cmp"
	"errors"
	"slices"

	"github.com/batchq/batchq/sched"
)

// Schedule implements sched.Scheduler: at each pass it catches up the
// PriorityCalcPeriod calculations due, runs the main scheduler when it is
// due, and a backfill cycle when one is due. Under Run the times are
// slurmctld's: its background loop checks once a second and runs the
// main scheduler every SchedInterval over the whole queue, and for the
// runs submissions and ends queued once BatchSchedDelay has passed since
// its last run (an end with an Epilog runs it at once); backfill checks
// BackfillInterval after its last cycle, then every second until some job
// changed since, and a cycle while jobs wait leaves work for the next, so
// cycles keep a grid of BackfillInterval while jobs wait. A cycle or
// periodic run that could start nothing (nothing changed since the last
// that ran, or no waiting job fits in the free CPUs) is passed over
// without work, its time kept.
//
// Used as a plain sched.Scheduler (inside sched/forecast, say), without
// Run's wake-ups, passes happen only at submissions and ends: the
// calculations due meanwhile are caught up at the next pass with their own
// times, the main scheduler runs at every pass, and backfill at the first
// pass BackfillInterval or more after the last cycle. A job no partition
// can run then waits for ever (Run cancels it at submission instead), and
// the simulation ends in sched.ErrStall.
func (p *Policy) Schedule(pass *sched.Pass) {
	now := pass.Now()
	if !p.observed {
		p.sync(pass)
	}
	if !p.started {
		return
	}
	p.catchUp(now)
	if p.observed {
		p.passAt = now
		p.mainDue(pass, now)
	} else if p.mainPending || p.mainSoon {
		p.mainPending, p.mainSoon = false, false
		full := p.fullPending && now >= p.lastFull+p.schedInt
		if full {
			p.lastFull = now
		}
		p.mainRun(pass, full)
	}
	if !p.cfg.Builtin {
		p.backfillDue(pass, now)
	}
	p.freeAfter = pass.Free()
	p.bfWaiting = p.jobs.len() > len(p.running)
	// No waiting job fits in the CPUs this pass leaves free: none can
	// start until an arrival or an end (which clears noFit), as if a
	// backfill cycle had found it, so Run wakes for no periodic run or
	// backfill check, and its calculations may be lazy (quiet). Without
	// SchedMinInterval only, which reads the time of the runs those
	// wake-ups would make. (eagerCalc: the tests' reference, without.)
	if p.observed && p.minInt == 0 && !p.eagerCalc && !p.noFit && p.bfWaiting && p.freeAfter > 0 && p.fitsNone(p.freeAfter) {
		p.noFit = true
	}
	p.arm()
}

// mainDue runs the main scheduler if it is due at now (Run). Two of
// slurmctld's threads make a run, and SchedMinInterval holds back only the
// second: the background loop asks for one (_slurmctld_background calls
// schedule()) at its periodic tick on the SchedInterval grid, which clears
// a queued run (job_sched_cnt), or for a queued run once BatchSchedDelay
// has passed since its last, and either is its last run from the tick
// (last_sched_time); the scheduler thread (_sched_agent) makes the runs
// asked, of the loop or at once (an end with an Epilog), merged into one,
// no sooner than SchedMinInterval after its own last run. A periodic run
// with nothing changed since the last is passed over: it would start
// nothing.
func (p *Policy) mainDue(pass *sched.Pass, now int64) {
	p.loopRan(now)
	if g := floorTo(now, p.schedInt); g > p.lastFull {
		p.lastFull = g
		p.lastSched = max(p.lastSched, g)
		// Run wakes at the periodic tick when it might start a job or
		// clears a queued run, so one passed over before now started
		// nothing; what is pending now came at now (Run would have woken
		// for what came before).
		if g == now && (p.fullPending || p.mainPending) {
			p.mainPending = false
			p.fullAsked = true
			p.ask(now)
		}
	}
	if p.mainPending && now >= p.lastSched+p.batchDelay {
		p.mainPending = false
		p.lastSched = now
		p.ask(now)
	}
	if p.mainSoon && now >= p.lastMain+p.minInt {
		full := p.fullAsked
		p.mainSoon, p.fullAsked = false, false
		p.mainRun(pass, full)
	}
}

// ask asks the scheduler thread for a run at now (schedule()); asks
// not yet made merge into the first (sched_requests).
func (p *Policy) ask(now int64) {
	if !p.mainSoon {
		p.mainSoon, p.soonAt = true, now
	}
}

// loopRan notes the runs slurmctld's threads made before now while no
// job waited, starting nothing. Slurm's loop asks a queued run at its
// first tick BatchSchedDelay after its last run (_slurmctld_background:
// job_sched_cnt and last_sched_time), whether or not a job waits; Run
// wakes for it while jobs wait, so one due before now found none, but it
// was the loop's last run: the next queued run comes BatchSchedDelay
// after it. (Passed over, the next submission's run came at once: the
// first job of a burst after an idle span started up to BatchSchedDelay
// early.) A periodic tick between the queuing and that time asked the run
// instead (it clears the queue). The periodic ticks while no job waits
// are noted by no pass: each is the loop's last run too (last_sched_time),
// so the queued run comes BatchSchedDelay after the last one before the
// queuing, and the first one at or after the queuing asks it; the grid is
// read from the queuing's time, not from the last pass (lastFull), which
// may be long before it (TestLoopRunAfterIdlePeriodic). The scheduler
// thread makes each run asked SchedMinInterval after its last run at the
// earliest, a run asked at once (an end with an Epilog: schedule() from
// the epilog's report) included: made then, starting nothing, it is the
// thread's last run, not left to the next submission, which would start
// its job at once rather than at the loop's run (TestEpilogRunWhileIdle).
// The runs are taken in their order.
func (p *Policy) loopRan(now int64) {
	// Neither run is due before now (most calls: a pass at the time of
	// the submission that queued the run) is the cheap test.
	if (!p.mainPending || p.mainAt >= now) && (!p.mainSoon || p.soonAt >= now) || !p.observed {
		return
	}
	for {
		r, periodic := p.loopDue()
		s := int64(never)
		if p.mainSoon {
			s = max(p.soonAt, p.lastMain+p.minInt)
		}
		if min(r, s) >= now {
			return
		}
		if r <= s { // the loop asks, and the thread's run merges it
			p.lastSched, p.mainPending = r, false
			p.fullAsked = p.fullAsked || periodic
			p.ask(r)
		} else {
			p.lastMain, p.mainSoon, p.fullAsked = s, false, false
		}
	}
}

// loopDue is the background loop's tick that asks the run queued at
// mainAt (never: none is queued), reading the periodic ticks from the
// queuing's time (loopRan), and whether it is a periodic one.
func (p *Policy) loopDue() (int64, bool) {
	if !p.mainPending {
		return never, false
	}
	before := p.lastFull // a periodic tick's time, on the grid
	if before+p.schedInt < p.mainAt {
		before = floorTo(p.mainAt-1, p.schedInt)
	}
	r := max(p.mainAt, max(p.lastSched, before)+p.batchDelay)
	if g := before + p.schedInt; g <= r {
		return g, true
	}
	return r, false
}

// backfillDue runs a backfill cycle if one is due at now. The checks
// come BackfillInterval after the last cycle, then every second: the
// first check with work (jobs waiting since the last pass, or an event
// since the last cycle) makes a cycle. Under Run, cycles that fall between
// passes are passed over (Run wakes for those that might start a job),
// keeping their times; without Run the first pass at or after a check
// with work runs the cycle.
func (p *Policy) backfillDue(pass *sched.Pass, now int64) {
	if p.bfChecks(now) {
		if p.bfDirty {
			p.backfill(pass)
		}
		p.bfCycled(now)
	}
}

// bfCycled notes the check at now that made a cycle (or had none to
// make): the events from now on are for the next.
func (p *Policy) bfCycled(now int64) {
	p.evAt = never
	if p.evLast >= now {
		p.evAt = now
	}
}

// bfChecks brings the backfill checks up to now (backfillDue) and
// reports whether one at now makes a cycle, which the caller runs if it
// has work (bfDirty).
func (p *Policy) bfChecks(now int64) bool {
	for {
		due := p.bfLast + p.bfInt
		if due > now {
			return false
		}
		if p.bfWaiting && due+p.bfInt <= now && !p.stepAll {
			// While jobs wait every check has work, at due and every
			// BackfillInterval on: those before the last due by now are
			// passed over as below, one by one, which cost a step per
			// interval of a quiet span (a job running 2^40 seconds).
			k := (now - due) / p.bfInt
			p.bfLast = due + (k-1)*p.bfInt
			p.skips += k
			p.evAt = never
			if p.evLast > p.bfLast {
				p.evAt = p.evLast
			}
			continue
		}
		t := int64(never)
		if p.bfWaiting {
			t = due
		}
		if p.evAt != never {
			t = min(t, max(due, p.evAt))
		}
		if t > now {
			return false
		}
		if t == now || !p.observed {
			p.bfLast = now
			return true
		}
		p.bfLast = t
		p.evAt = never
		if p.evLast > t {
			p.evAt = p.evLast
		}
	}
}

// sync finds, without Run's observer, the jobs that arrived and the jobs
// that ended since the last pass. An end is dated to this pass: the
// simulator does not say when it happened.
func (p *Policy) sync(pass *sched.Pass) {
	now := pass.Now()
	if len(p.mach.Nodes) == 0 && pass.MachineSize() != p.cpus {
		// A Policy plugged into another simulator takes its machine.
		p.nodes, p.cpus = pass.MachineSize(), pass.MachineSize()
		for _, r := range p.queue {
			p.consts(r) // the job size factor
		}
	}
	if p.started && now < p.lastNow {
		p.newSimulation()
	}
	p.lastNow = now
	// Ends first: a job ending and another of its ID arriving at once
	// are two jobs.
	if len(p.running) > 0 {
		p.endedRunning(pass, now)
	}
	p.seq++
	for j := range pass.Waiting() {
		if r, ok := p.jobs.get(j.ID()); ok {
			if r.ptr == nil || r.ptr == j {
				r.seen, r.ptr = p.seq, j
				continue
			}
			p.forget(r) // another simulation's job of the same ID
		}
		p.begin(now)
		p.catchUp(now)
		sw := j.SWF()
		r := p.newRec(&sw, j.Size(), j.Demand().Nodes, j.Estimate())
		if r.held != "" {
			p.unrunnable[r.held]++
		}
		r.seen, r.ptr = p.seq, j
		p.enqueue(r, now)
	}
	for _, r := range p.queue {
		if !r.running && r.seen != p.seq && !r.gone {
			p.ended(r.id, now) // cancelled while waiting
		}
	}
}

// endedRunning finds the running jobs that ended since the last pass.
func (p *Policy) endedRunning(pass *sched.Pass, now int64) {
	alive := p.perUsr // reused: the IDs still running
	clear(alive)
	for j := range pass.Running() {
		alive[j.ID()] = 1
	}
	for i := len(p.running) - 1; i >= 0; i-- {
		if r := p.running[i]; alive[r.id] == 0 {
			p.ended(r.id, now)
		}
	}
	clear(alive)
}

// newSimulation forgets the jobs, clocks and usage of the last
// simulation when the policy finds itself in a new one (its clock went
// back, as when sched/forecast simulates forward from each snapshot with
// one Policy): each starts from the configuration's tree and usage
// (RawUsage).
func (p *Policy) newSimulation() {
	p.pendingUse = p.pendingUse[:0]
	p.tree = newTree(&p.cfg)
	p.jobs.clear()
	p.queue, p.running = p.queue[:0], p.running[:0]
	p.queueGen++
	p.left, p.sorted, p.endsOK, p.started = 0, false, false, false
}

// forget drops r without counting its usage: it belonged to another
// simulation.
func (p *Policy) forget(r *jobRec) {
	p.jobs.del(r.id)
	r.gone, r.out = true, true
	p.queueGen++
	if r.running {
		i := p.runIndex(r)
		p.running = slices.Delete(p.running, i, i+1)
	} else {
		p.left++
	}
}

// ptr returns the simulator's handle of waiting job r in this pass, nil
// if the simulator has no such waiting job. Handles are valid during one
// pass (sched's contract: keep jobs by ID), so each is looked up by ID.
func (p *Policy) ptr(pass *sched.Pass, r *jobRec) *sched.Job {
	if j := pass.Job(r.id); j != nil && j.Started() < 0 {
		return j
	}
	return nil
}

// start starts r now through the pass; false if it does not fit (on a
// machine of nodes the placement has the last word).
func (p *Policy) start(pass *sched.Pass, r *jobRec, backfilled bool) bool {
	j := p.ptr(pass, r)
	if j == nil {
		return false
	}
	var err error
	if backfilled {
		err = pass.Backfill(j)
	} else {
		err = pass.Start(j)
	}
	if err != nil {
		if !errors.Is(err, sched.ErrNoFit) {
			r.held, r.out = err.Error(), true // a bug of the policy; never retry it
			p.queueGen++
		}
		return false
	}
	if p.ns != nil {
		p.ns.noteStart(r, len(p.running))
	}
	p.onStart(r, pass.Now())
	return true
}

// mainRun is the main scheduler (job_scheduler.c _schedule): the waiting
// jobs in Slurm's order, each started if it fits now; a job that does not
// fit makes its partition fail, and the nodes of a failed partition are
// taken from every later job, so a partition over the same nodes (every
// partition without Nodes) fails with it. A run triggered by an event
// tests at most default_queue_depth (100) jobs; the periodic one tests
// them all.
func (p *Policy) mainRun(pass *sched.Pass, full bool) {
	now := pass.Now()
	p.sortQueue()
	p.lastMain = now
	if full {
		p.fullPending = false
	}
	var failed []int
	allFailed := false
	if p.pp != nil {
		p.pp.reset()
	}
	depth := 0
	for _, r := range p.queue {
		if r.out && (r.running || r.gone) {
			continue
		}
		if !full && depth > defQueueDepth {
			return
		}
		depth++
		if allFailed {
			break // every partition shares the failed one's nodes
		}
		if r.held != "" || p.blocked(r.part, failed) {
			continue
		}
		// Where too few nodes of its partition are left in this run (not
		// try), _schedule fails its partition without trying it.
		try, fits := true, true
		if p.pp != nil {
			try, fits = p.room(pass, r)
		}
		if try && fits && r.cpus <= pass.Free() {
			if p.pp != nil {
				p.pp.masked = p.pp.any
			}
			ok := p.start(pass, r, false)
			if p.pp != nil {
				p.pp.masked = false
			}
			if ok {
				continue
			}
		}
		failed = append(failed, r.part)
		if p.pp != nil {
			p.pp.fail(&p.parts[r.part])
		}
		if p.parts[r.part].Nodes == nil {
			allFailed = true
		}
	}
	// A run that tested every job it would have as a periodic one leaves
	// the periodic run nothing to start until something changes: no job
	// that failed now fits in fewer CPUs, and those after it meet the
	// same failures. Without SchedMinInterval, which reads the time of
	// any run, it is passed over (Run asks no wake-up for it).
	if p.minInt == 0 {
		p.fullPending = false
	}
}

// blocked reports whether partition i shares nodes with a failed one.
// With partitions on named nodes (p.pp), only a partition that failed
// itself is (_failed_partition): one that shares some nodes with a
// failed one runs on its others (room).
func (p *Policy) blocked(i int, failed []int) bool {
	if p.pp != nil {
		return slices.Contains(failed, i)
	}
	for _, f := range failed {
		if f == i || p.overlap(f, i) {
			return true
		}
	}
	return false
}

func (p *Policy) overlap(a, b int) bool {
	na, nb := p.parts[a].Nodes, p.parts[b].Nodes
	if na == nil || nb == nil {
		return true
	}
	for _, x := range na {
		if slices.Contains(nb, x) {
			return true
		}
	}
	return false
}

// bfSkips reports whether a backfill cycle passes over waiting job r
// without testing it: it is not waiting, it is held, or its user has had
// bf_max_job_user tests this cycle (the test counted here). Both plans'
// cycles choose their jobs by it; each stops at bf_max_job_test tests or
// when fewer CPUs are free than any job from there on asks (p.least).
func (p *Policy) bfSkips(r *jobRec) bool {
	if r.out {
		return true
	}
	if m := p.cfg.BackfillMaxJobUser; m > 0 {
		if p.perUsr[r.user] >= m {
			return true
		}
		p.perUsr[r.user]++
	}
	return false
}

// backfill is one cycle of sched/backfill (_attempt_backfill). The plan
// starts from the free CPUs now and each running job's CPUs coming back
// at its start + time limit. The waiting jobs, in Slurm's order, up to
// bf_max_job_test tested and bf_max_job_user tested per user, are each
// placed at the earliest time they fit for their time limit: a job that
// fits now starts now; one that fits later, within bf_window, reserves
// whole nodes from its start to its end rounded down to bf_resolution
// (at least to the end of its first bf_resolution slot), so no job tested
// after it may use them then. (Slurm also counts a reservation that
// begins at the very second a job ends as in its way; here windows are
// half-open, so such a job may start: it ends as the reservation begins.)
// Under Run, on a machine of several nodes whose jobs each ask one node,
// the cycle plans on named nodes instead (backfillNodes, nodeplan.go), as
// Slurm's node_space does.
func (p *Policy) backfill(pass *sched.Pass) {
	now := pass.Now()
	p.bfDirty = false
	p.bfStill, p.bfBeyond = true, never
	if pass.Free() <= 0 { // nothing can start: see least below
		p.noFit = true
		return
	}
	p.sortQueue()
	if len(p.queue) == 0 {
		return
	}
	// least[i] is the fewest CPUs a job from queue[i] on asks: once the
	// CPUs free now are below it, nothing more can start in this cycle,
	// and the plans of the jobs left would change nothing in it: the
	// cycle stops there (Slurm goes on, to show expected start times).
	p.leastCPUs()
	defer func() { p.noFit = pass.Free() < p.least[0] }()
	freeNow := pass.Free() // the profile's free CPUs at now
	if freeNow < p.least[0] {
		return
	}
	prof := &p.plan
	prof.reset(now, pass.Free())
	if !p.endsOK {
		slices.SortFunc(p.running, cmpEnd)
		p.endsOK = true
	}
	if p.ns != nil && p.nodeReady(pass, now) {
		p.backfillNodes(pass, now, freeNow)
		return
	}
	if run := p.running; len(run) == 0 || run[0].start+run[0].limit > now {
		// No job is overdue (one is from its limit plus OverTimeLimit
		// to the next limit check; TestBackfillOverdue has one): the
		// ends ascend as p.running is sorted.
		prof.releaseEnds(run)
	} else {
		for t, r := range p.runningEnds(now) {
			prof.release(t, r.planCPUs())
		}
	}
	// p.perUsr is empty between calls (every user of it clears it after
	// use) and only bfSkips fills it, under bf_max_job_user: a cycle
	// without one clears nothing (two map clears a cycle otherwise).
	maxUser := p.cfg.BackfillMaxJobUser
	if maxUser > 0 {
		clear(p.perUsr)
	}
	begin := now / p.bfRes * p.bfRes // node_space's first record
	tested := int64(0)
	reserved := false
	p.beyond = p.beyond[:0]
	by, least := now+p.bfWin, p.least[:len(p.queue)]
	for i, r := range p.queue {
		if tested >= p.bfTest || freeNow < least[i] {
			break
		}
		if r.out || maxUser > 0 && p.bfSkips(r) { // bfSkips, its first test here
			continue
		}
		tested++
		if len(p.beyond) > 0 && p.beyondOf(r) { // most cycles find none beyond
			continue
		}
		c := r.planCPUs()
		t, at, ok := prof.fit(c, r.limit, by) // after the last hold
		if !ok {
			continue
		}
		if t > by {
			p.bfBeyond = min(p.bfBeyond, t)
			p.addBeyond(r)
			continue
		}
		if t == now {
			p.bfStill = false
			if p.start(pass, r, reserved) {
				prof.hold(now, r.limit, c, at)
				freeNow -= c
				continue
			}
			// The CPUs are free but no node has room for it now. Slurm's
			// backfill plans it on named nodes, at the earliest time one
			// comes free enough (running jobs ending at their limits,
			// _attempt_backfill's node_space): Pass.Earliest, which
			// places it node by node, ignoring this cycle's earlier
			// plans (the pool's plan holds them from then on).
			t = now + 1
			if len(p.mach.Nodes) > 0 {
				if j := p.ptr(pass, r); j != nil {
					t = max(t, pass.Earliest(j))
				}
				if t > now+p.bfWin {
					p.bfBeyond = min(p.bfBeyond, t)
					continue
				}
			}
		}
		// Slurm's reservation runs from the start rounded down to its end
		// rounded down, at least one bf_resolution. Its nodes are those
		// that come free at the start, still busy before it in the plan,
		// so the plan holds them from the start itself.
		e := p.resvEnd(t, r.limit, begin)
		hold := r.whole
		prof.hold(t, e-t, hold, at)
		if t <= now {
			freeNow -= hold
		}
		reserved = true
		// The simulator notes a reservation only when its time changes:
		// one that did not is not told again, sparing the handle's look-up.
		if t != r.res {
			if j := p.ptr(pass, r); j != nil && pass.Reserve(j, t) == nil {
				r.res = t
			}
		}
	}
	if maxUser > 0 {
		clear(p.perUsr)
	}
}

// leastCPUs brings p.least up to date with the queue and returns the
// fewest CPUs a waiting job asks (never: none). least[i] is the fewest
// from queue[i] on. The queue's waiting jobs are often those of the last
// call, in its order (a job ended since, and none started or arrived):
// then so is least.
func (p *Policy) leastCPUs() int64 {
	if p.leastGen != p.queueGen || len(p.least) != len(p.queue) {
		// Locals: stores through p.least would reload p.queue and p.least.
		queue := p.queue
		ls := slices.Grow(p.least[:0], len(queue))[:len(queue)]
		least := int64(never)
		for i := len(queue) - 1; i >= 0; i-- {
			if r := queue[i]; !r.out {
				least = min(least, r.cpus)
			}
			ls[i] = least
		}
		p.least, p.leastGen = ls, p.queueGen
		p.minWait = least
	}
	if len(p.least) == 0 {
		return never
	}
	return p.least[0]
}

// fitsNone reports whether no waiting job fits in free CPUs, from what
// is known without a scan of the queue: least if it is current, else
// minWait, a lower bound (false: not known).
func (p *Policy) fitsNone(free int64) bool {
	if free < p.minWait {
		return true
	}
	return p.leastGen == p.queueGen && len(p.least) == len(p.queue) && len(p.least) > 0 && free < p.least[0]
}

// beyondOf reports whether waiting job r starts beyond bf_window in
// this cycle of the plan of CPUs because a job tested before it in the
// cycle does, asking no more of the plan's CPUs (planCPUs: an exclusive
// job's whole nodes) for no longer. (Not in the named-node plan, whose
// fit turns on the job's partition, memory and GPUs too.) The plan only
// loses free CPUs as the cycle goes on, so r's earliest start is no
// earlier than that job's, which bfBeyond already bounds from below, and
// r's fit is spared. p.beyond holds the (CPUs, time limit) of such jobs,
// none asking as little as another for as short.
func (p *Policy) beyondOf(r *jobRec) bool {
	c, d := r.planCPUs(), max(r.limit, 1)
	for _, b := range p.beyond {
		if b.cpus <= c && b.d <= d {
			return true
		}
	}
	return false
}

// addBeyond adds r, found beyond bf_window and not beyondOf, to
// p.beyond, dropping the jobs it asks less than.
func (p *Policy) addBeyond(r *jobRec) {
	c, d := r.planCPUs(), max(r.limit, 1)
	k := 0
	for _, b := range p.beyond {
		if !(c <= b.cpus && d <= b.d) {
			p.beyond[k] = b
			k++
		}
	}
	p.beyond = append(p.beyond[:k], beyondJob{c, d})
}

// beyondJob is what beyondOf compares of a job found beyond bf_window.
type beyondJob struct{ cpus, d int64 }

// resvEnd is the end of a reservation from t (after now, whose ⌊⌋ is
// begin) for a job of time limit limit: max(⌊t+limit⌋, max(⌊t⌋, begin) +
// bf_resolution), ⌊⌋ rounding down to bf_resolution (Go's division, for a
// time before 0 up). From t ≥ 0 one division does: ⌊t⌋ ≥ begin, and
// ⌊t+limit⌋ is the larger unless it is ⌊t⌋ itself (it is no later than t).
func (p *Policy) resvEnd(t, limit, begin int64) int64 {
	res := p.bfRes
	if t < 0 || limit < 0 {
		s := max(t/res*res, begin)
		return max((t+limit)/res*res, s+res)
	}
	e := (t + limit) / res * res
	if e <= t {
		e += res
	}
	return e
}

// planCPUs is the CPUs job r holds running: those it asks, or those of
// its whole nodes for an exclusive job (the machine holds them all, and
// gives them all back at its end).
func (r *jobRec) planCPUs() int64 {
	if r.excl {
		return r.whole
	}
	return r.cpus
}

// wholeNodes is the CPUs of the whole nodes a reservation of r holds.
func (p *Policy) wholeNodes(r *jobRec) int64 {
	if p.perNode == 1 { // spare the division
		return min(max(r.minNodes, r.cpus), p.cpus)
	}
	n := max(r.minNodes, (r.cpus+p.perNode-1)/p.perNode)
	return min(n*p.perNode, p.cpus)
}

func cmpEnd(a, b *jobRec) int {
	if c := cmp.Compare(a.start+a.limit, b.start+b.limit); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}

// endsBefore is the number of running jobs before r in cmpEnd's order
// (p.running sorted by it): slices.BinarySearchFunc(p.running, r,
// cmpEnd), its calls of cmpEnd written out.
func (p *Policy) endsBefore(r *jobRec) int {
	e, run := r.start+r.limit, p.running
	a, b := 0, len(run)
	for a < b {
		m := int(uint(a+b) >> 1)
		q := run[m]
		if qe := q.start + q.limit; qe < e || qe == e && q.id < r.id {
			a = m + 1
		} else {
			b = m
		}
	}
	return a
}

// runIndex is the index of running job r in p.running: found by its end
// once p.running is sorted by it, rather than kept in each job (which
// every start and end renumbered after it).
func (p *Policy) runIndex(r *jobRec) int {
	if p.endsOK {
		if i := p.endsBefore(r); i < len(p.running) && p.running[i] == r {
			return i
		}
	}
	return slices.Index(p.running, r)
}

// onStart records that r started at now. The running jobs stay sorted
// by end (start + limit) once backfill sorted them: a job starting now
// ends after those that started before with a limit no longer than its.
func (p *Policy) onStart(r *jobRec, now int64) {
	r.running, r.out, r.start = true, true, now
	p.runGen++
	p.queueGen++
	p.left++
	i := len(p.running)
	if p.endsOK {
		i = p.endsBefore(r)
	}
	// slices.Insert, by hand: a job starting now ends after most of the
	// running ones, so a few move, for which the generic call and its
	// typed copy cost more than the loop.
	run := append(p.running, r)
	for k := len(run) - 1; k > i; k-- {
		run[k] = run[k-1]
	}
	run[i] = r
	p.running = run
	// Neither the main scheduler nor backfill is asked to run again by
	// their own starts: the events that let a job start asked already,
	// and a cycle plans around the jobs it starts. A start is an event
	// for the backfill checks (last_job_update).
	p.event(now)
}

// arm asks Run's simulator for a wake-up at the next time something is
// due while jobs wait: a calculation, a main
// scheduler run asked or queued, and the next periodic run and backfill
// check if they might start a job (something changed since the last that
// ran, and some CPU is free, and some waiting job fitted it at the last
// cycle).
func (p *Policy) arm() {
	if p.sim == nil || !p.started || p.jobs.len() == 0 {
		return
	}
	// While no job waits, the calculations are left to the next event,
	// which catches them up with their own times before it acts: they
	// change no priority, only usage, and the same.
	t, still := int64(never), int64(never)
	p.stillSkip, p.tickSkip, p.stillLazy = false, false, false
	if p.jobs.len() > len(p.running) { // jobs wait
		if !p.quiet() {
			still = p.stillUntil()
			t = still
		}
		// The loop's ticks come on their own times, and the scheduler
		// thread makes the run they ask SchedMinInterval after its last.
		nextFull := p.lastFull + p.schedInt
		if p.mainSoon {
			t = min(t, p.lastMain+p.minInt)
		}
		if p.mainPending {
			t = min(t, p.lastSched+p.batchDelay, nextFull)
		}
		mayFit := p.freeAfter != 0 && !p.noFit
		if p.fullPending && mayFit {
			if p.heldFull() {
				p.tickSkip = true // see stillspan.go
			} else {
				t = min(t, nextFull)
			}
		}
		if p.bfDirty && mayFit && !p.cfg.Builtin {
			// The first check with work: jobs wait, so the next.
			t = min(t, p.bfLast+p.bfInt)
		}
		if t < still && t > p.nextCalc {
			// A wake-up for something else than a calculation, with
			// calculations passed over before it: the eager algorithm
			// asks it only at the last calculation before it (or a later
			// pass), which may no longer want it (an event in between left
			// no CPU free), and a pass on a tick asks a run. So wake at
			// that calculation, whose arm asks it again if still wanted.
			t = p.nextCalc + (t-1-p.nextCalc)/p.calcPeriod*p.calcPeriod
		}
	}
	// What is due now was done by the pass of now, or is left to it.
	t = max(t, p.sim.Now()+1)
	if t >= p.armed {
		return
	}
	p.armed = t
	p.pending = append(p.pending, t)
	if p.wakeFn == nil {
		p.wakeFn = p.wake
	}
	p.sim.At(t, p.wakeFn)
}

// wake is Run's wake-up: the calculations due, then (the simulator runs a
// pass after the wake-ups of an instant while jobs wait) the pass. The
// earliest wake-up still to come is then the earliest pending one: an
// earlier arm left the later ones in the simulator's queue, and arm asks
// for none at or after it. The simulator wakes in time order, so now is
// the top of the stack.
func (p *Policy) wake(now int64) {
	if k := len(p.pending) - 1; k >= 0 && p.pending[k] == now {
		p.pending = p.pending[:k]
	} else if i := slices.Index(p.pending, now); i >= 0 { // never, but keep the stack true
		p.pending = slices.Delete(p.pending, i, i+1)
	}
	p.armed = never
	if k := len(p.pending) - 1; k >= 0 {
		p.armed = p.pending[k]
	}
	p.wakes++
	if p.jobs.len() == 0 {
		// A wake-up asked while jobs were there, after the last left: the
		// calculations are the next event's, folded as while none waits
		// (catchUp), not split at the time of a wake-up that a look ahead
		// put far on and a wake-up at every calculation does not have.
		return
	}
	p.catchUp(now)
	if p.sim.Waiting() == 0 {
		p.arm()
	}
}
