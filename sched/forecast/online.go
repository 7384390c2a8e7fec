package forecast

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// floor is the wait below which two waits count as equal (60 s, the
// issue's scoring floor): the model learns log(max(wait, floor)).
const floor = 60

// maxQueueModels is the number of queues (the first seen) that get
// ladders of their own: a ladder holds some 20 KB, and a log, hostile or
// not, may number a queue per job. The archive logs have at most 30
// (SDSC-Par), so none reaches it.
const maxQueueModels = 64

// maxUserModels is the number of users' ladders kept, for the same reason
// as maxQueueModels (a ladder holds about 21 KB: 512 of them 11 MB):
// past it, a new user's ladder replaces that of the user whose last job
// started longest ago, so that a service run for months learns its
// current users, not the first 512 it saw. The archive logs have at most
// 679 users (CTC-SP2; CEA-Curie 582), of whom at most 265 have 200 jobs
// (SDSC-BLUE), the Train a ladder needs before it is used.
const maxUserModels = 512

// maxUsers, maxQueues, maxQueueClasses and maxHourKeys bound Online's
// histories of users (the wait of their last started job), of queues (the
// waits of their last started jobs), of queue and size class (the last
// wait) and of queue, size class and hour (the waits), for the reason of
// maxUserModels: past them, a new key takes the entry of the one whose
// last job started longest ago (lru). A queue is a queue and partition
// (partOf). They are above what any archive log has, so that no figure of
// the README changes: at most 679 users (CTC-SP2), 30 queues (SDSC-Par),
// 97 queues and classes (CEA-Curie), 1,260 queues, classes and hours
// (CEA-Curie). A user's waiting jobs and
// running processors need no bound: their entries go when they reach 0,
// so they are at most the jobs Online holds.
const (
	maxUsers        = 4096
	maxQueues       = 256
	maxQueueClasses = 4096
	maxHourKeys     = 8192
)

// avgStep is the weight of the newest job in the moving averages of the
// recent waits and errors (a memory of about 20 jobs).
const avgStep = 0.05

// nFeatures is the length of the learned correction's feature vector;
// the ladders use the first nPlain until a job with a demand line arrives
// (the features of a machine of nodes), so that a log without one costs
// what it did.
const (
	nFeatures = 27
	nPlain    = 26
)

// Online is the forecaster run causally over a stream of jobs, learning
// from what happened: it keeps the machine's running and waiting jobs from
// the events it is told, answers each question with a forward simulation
// of that moment's snapshot, and corrects the simulated wait with the
// package doc's ladder, fitted per size class (and over all jobs, used
// until a class has Train jobs) on the waits of the jobs that have started,
// and a ladder per queue and size class and one per queue: once the
// queue and class's has learnt from Train jobs (and not from every job of
// its class, when the two are the same fit), the answer is taken from the
// average of the three distributions (the class's pools its queues, the
// queue's pools its classes, the queue and class's fits what a linear
// model per class cannot: a queue's own limits, order and hours; the first
// 64 queues seen get these ladders, later ones, and jobs without a queue
// (−1), the class's alone). A queue here is a queue and partition (SWF
// fields 15 and 16, partOf): on a log whose jobs name several partitions,
// each partition of a queue, and each partition of a log without queues,
// gets the queue's ladders and histories. A user's own ladder, once it has learnt from
// Train of their jobs, joins the average with the same weight (a user's
// habits — when they submit, how much, to which queue — change what the
// same features mean for their jobs; the ladders of the 512 users whose
// last job started most recently are kept, jobs without a user (−1) have
// none).
// The features are each job's as they were at its question: log simulated wait,
// log naive baseline (Naive), the processors queued ahead, the running
// processors, the queue's length and its oldest job's age, the job's size
// and estimate, the last wait of its class and of its user, the user's
// other waiting jobs and running processors (a job without a user, −1,
// has those of a user never seen: no trace's user-less jobs are one
// user), the median wait of the job's queue (and partition); the median wait of the jobs
// of its queue and size class asked about at the same hour of earlier
// days (queues open by the clock); the jobs of its queue, and of its queue and class, waiting ahead, the oldest
// one's age and the last wait of its queue and class (an order per
// queue); the running jobs of its class and how soon the first ends (a
// machine in partitions); whether its demand line asks no GPU (a machine
// of GPUs; read once a job with a Demand has arrived). Answers are capped
// at the longest wait seen. It is a replay.Predictor: replay.Run scores it
// with the information a real service has at each submission. Jobs need
// unique IDs. Not safe for concurrent use.
type Online struct {
	cfg     Config
	f       *Forecaster
	machine int64
	naive   Naive
	running []swf.Job
	runEnd  []runEnd      // per running job: its predicted end, as at its start
	runAt   map[int64]int // ID → index in running
	waiting []swf.Job     // in arrival order
	seq     []int64       // per waiting job: its arrival's number (Forecaster.question)
	gone    waitGone      // the started jobs still in waiting (waitlist.go)
	arrived int64         // the arrivals told
	ahead   ahead         // the waiting jobs' sums (ahead.go), kept while the queue is long
	aheadOn int           // the queue's length past which they are kept (aheadQueue; the tests' less)
	runs    runSums       // the running jobs' sums (runsums.go)
	loop    bool          // features and startsNow walk the queue (the tests' reference)
	pending map[int64]asked
	global  *ladder
	class   map[int]*ladder
	queue   map[[3]int64]*ladder // queue, partition, size class → its own ladder; queue, partition, −1 → the queue's (partition −1 on a log of one partition)
	queues  int                  // the queues with ladders of their own (at most maxQueueModels)
	user    *lru[int64, *ladder] // user → their ladder (maxUserModels), by their last job learnt from
	mix     [nThresholds]float64 // the averaged distribution function
	use     []*ladder            // the ladders averaged for the job asked about
	snap    Snapshot
	lastW   map[int]int64         // size class → wait of its last started job
	userW   *lru[int64, int64]    // user → wait of their last started job (maxUsers)
	userQ   map[int64]int         // user → their jobs waiting (none: absent)
	userR   map[int64]int64       // user → their running processors (none: absent)
	queueW  *lru[[2]int64, ring]  // queue, partition → the waits of its last started jobs (maxQueues)
	hourW   *lru[hourKey, ring]   // queue, size class, hour of day → the waits of its last started jobs (maxHourKeys)
	lastQC  *lru[[3]int64, int64] // queue, partition, size class → the wait of its last started job (maxQueueClasses)
	errAvg  float64               // moving average of log(max(wait, floor)) − log(simulated + floor) of the started jobs
	waitAvg float64               // moving average of log(max(wait, floor)) of the started jobs
	maxWait int64                 // the longest wait of a started job (a cap on the answers)
	nf      int                   // the features the ladders use: nPlain, or nFeatures once a job with a Demand has arrived
	byStart []swf.Job             // on a machine of nodes: the running jobs in start order
	// byStartOK: byStart holds them (kept by the starts that come in its
	// order, sorted again after an end or one out of it: a flurry whose
	// jobs start at once sorted every running job at each question)
	byStartOK bool
	part0     int64 // the first partition (SWF field 16) of an arrived job, −1 before one
	multi     bool  // the arrived jobs have named more than one partition
	x         [nFeatures]float64
}

// asked is what Online keeps of a question until the job starts.
type asked struct {
	at int64
	x  [nFeatures]float64
}

// NewOnline returns an Online forecaster of a machine of machineSize
// processors; on a machine of nodes (Config.Policy.Nodes) machineSize is
// 0 or the nodes' cores.
func NewOnline(cfg Config, machineSize int64) (*Online, error) {
	f, err := New(cfg)
	if err != nil {
		return nil, err
	}
	switch {
	case f.cores > 0 && machineSize == 0:
		machineSize = f.cores
	case f.cores > 0 && machineSize != f.cores:
		return nil, fmt.Errorf("%w: machine size %d, but the nodes have %d cores", errSnapshot, machineSize, f.cores)
	case machineSize <= 0 || machineSize > maxMachine:
		return nil, fmt.Errorf("%w: machine size %d outside 1..2^40", errSnapshot, machineSize)
	}
	if cfg.Train == 0 {
		cfg.Train = 200
	}
	if cfg.Forget == 0 {
		cfg.Forget = 0.995
	}
	o := &Online{
		cfg: cfg, f: f, machine: machineSize,
		runAt: make(map[int64]int), lastW: make(map[int]int64), userW: newLRU[int64, int64](maxUsers), pending: make(map[int64]asked),
		userQ: make(map[int64]int), userR: make(map[int64]int64), queueW: newLRU[[2]int64, ring](maxQueues),
		hourW: newLRU[hourKey, ring](maxHourKeys), lastQC: newLRU[[3]int64, int64](maxQueueClasses),
		nf: nPlain, global: newLadder(cfg.Forget, nPlain), class: make(map[int]*ladder), queue: make(map[[3]int64]*ladder),
		user: newLRU[int64, *ladder](maxUserModels), part0: -1, aheadOn: aheadQueue,
	}
	if f.cores > 0 {
		f.order = o.sortRunning
	}
	return o, nil
}

// Observe is told each job's arrival, start (Wait known) and end (RunTime
// known), in time order.
func (o *Online) Observe(ev replay.Event, j *swf.Job) error {
	switch ev {
	case replay.Arrive:
		if j.Demand != nil && o.nf < nFeatures {
			o.grow()
		}
		if j.Partition >= 0 && o.part0 < 0 {
			o.part0 = j.Partition
		}
		o.multi = o.multi || j.Partition >= 0 && j.Partition != o.part0
		o.arrived++
		o.addWaiting(j)
		switch {
		case o.ahead.on:
			o.ahead.add(j, o.arrived)
		case len(o.waiting)-o.gone.n > o.aheadOn:
			o.compact()
			o.ahead = ahead{on: true}
			for i := range o.waiting {
				o.ahead.add(&o.waiting[i], o.seq[i])
			}
		}
		addTo(o.userQ, j.User, 1)
	case replay.Start:
		o.f.changed()
		if o.removeWaiting(j.ID) {
			addTo(o.userQ, j.User, -1)
		}
		// A job with no size holds no processors: kept out of the
		// running jobs, it is in no snapshot (one would be a bad one);
		// on nodes a demand that gives its cores sizes it (sched).
		if j.RunTime >= 0 && (j.Size() > 0 || o.f.cores > 0 && demandCores(j)) {
			o.runAt[j.ID] = len(o.running)
			o.running = append(o.running, *j)
			e := o.f.estimate(j)
			// (Held at 2^40 s, as the simulation holds them: an estimate
			// near 2^63 wrapped the end below now, "ends in a minute".)
			st := j.Submit + j.Wait
			o.runEnd = append(o.runEnd, runEnd{st + min(o.f.runtime(j, e, st), sanitize.MaxTime), st + min(max(e, 0), sanitize.MaxTime)})
			addTo(o.userR, j.User, o.f.heldSize(j))
			o.runs.start(o.f.heldSize(j), sizeClass(j.Size()), o.runEnd[len(o.runEnd)-1])
			if n := len(o.byStart); o.byStartOK && o.f.cores > 0 && (n == 0 || byStartOrder(o.byStart[n-1], *j) < 0) {
				o.byStart = append(o.byStart, *j)
			} else {
				o.byStartOK = false
			}
		}
		qp := partOf(j)
		useRing(o.queueW, [2]int64{j.Queue, qp}, 0).add(j.Wait)
		useRing(o.hourW, keyAt(j, j.Submit, qp), hourWindow).add(j.Wait)
		o.naive.add(j.Size(), j.Wait)
		o.lastW[sizeClass(j.Size())] = j.Wait
		w, _ := o.lastQC.use([3]int64{j.Queue, qp, int64(sizeClass(j.Size()))})
		*w = j.Wait
		w, _ = o.userW.use(j.User)
		*w = j.Wait
		if a, ok := o.pending[j.ID]; ok {
			delete(o.pending, j.ID)
			o.learn(j, a)
		}
		y := math.Log(float64(max(j.Wait, floor)))
		o.waitAvg += avgStep * (y - o.waitAvg)
		o.maxWait = max(o.maxWait, j.Wait)
	case replay.End:
		o.f.changed()
		if i, ok := o.runAt[j.ID]; ok {
			// (What the start added, from the copy kept: the user's count
			// goes back to what it was, never below it.)
			r := &o.running[i]
			addTo(o.userR, r.User, -o.f.heldSize(r))
			o.runs.end(o.f.heldSize(r), sizeClass(r.Size()))
			o.byStartOK = false
			last := len(o.running) - 1
			o.running[i] = o.running[last]
			o.runEnd[i] = o.runEnd[last]
			o.runAt[o.running[i].ID] = i
			o.running = o.running[:last]
			o.runEnd = o.runEnd[:last]
			delete(o.runAt, j.ID)
		}
		o.f.Terminated(j, j.Submit+j.Wait+j.RunTime)
	}
	return nil
}

// grow makes every ladder use the demand features, which were 0 for
// every job so far (linear.grow).
func (o *Online) grow() {
	o.nf = nFeatures
	o.global.m.grow(o.nf)
	for _, m := range o.class {
		m.m.grow(o.nf)
	}
	for _, m := range o.queue {
		m.m.grow(o.nf)
	}
	o.user.all(func(l **ladder) { (*l).m.grow(o.nf) })
}

// Predict forecasts j's wait from now (j must have arrived): the corrected
// simulated wait once the model has learned, the simulated one before.
func (o *Online) Predict(j *swf.Job, now int64) (replay.Prediction, error) {
	o.compact()
	pos := -1
	for i := len(o.waiting) - 1; i >= 0; i-- {
		if o.waiting[i].ID == j.ID {
			pos = i
			break
		}
	}
	if pos < 0 {
		return replay.Prediction{Reason: "not waiting"}, nil
	}
	if now < 0 || now > sanitize.MaxTime {
		// A snapshot at such a time is an error (sched drops every job
		// that arrives then); one corrupt time declines its question,
		// counted by Reason, rather than end the replay.
		return replay.Prediction{Reason: "time outside 0..2^40 s"}, nil
	}
	o.snap = Snapshot{Now: now, MachineSize: o.machine, Running: o.running, Waiting: o.waiting[:pos+1]}
	if o.f.cores > 0 {
		// The simulation places the running jobs again in Running's order:
		// in start order (o.running's is that of swaps on removal), as a
		// first-fit scheduler placed them. One pool keeps o.running's
		// order, whose answers the README's tables pin.
		// Sorted when a simulation reads them (Forecaster.order): most
		// questions of a flurry go on with the simulation kept and read
		// only their number.
		if o.loop {
			o.byStartOK = false
			o.sortRunning(&o.snap)
		}
	}
	busy := o.runs.busy()
	if o.loop { // (the tests' reference)
		busy = 0
		o.runs.walks += 2 * len(o.running) // (and features' walk)
		for i := range o.running {
			busy = min(busy+o.f.heldSize(&o.running[i]), maxMachine) // saturates, as the simulation's
		}
	}
	sim := float64(-1)
	if o.startsNow(j, pos, busy) {
		// The simulation would start it now: skip it (most questions on
		// a machine that is not full, and the costliest there, since
		// every running job is simulated to its end).
		sim = 0
		o.f.lastMachine = max(o.machine, busy)
	} else {
		st, err := o.f.question(context.Background(), &o.snap, o.seq[:pos+1])
		if err != nil {
			return replay.Prediction{}, err
		}
		if st >= 0 {
			sim = float64(st - now)
		}
	}
	nv, haveNaive := o.naive.median(j.Size())
	if sim < 0 {
		if !haveNaive {
			return replay.Prediction{Reason: "cannot simulate, no history"}, nil
		}
		return point(nv), nil
	}
	if !haveNaive {
		nv = sim
	}
	o.features(j, pos, sim, nv, busy)
	o.pending[j.ID] = asked{at: now, x: o.x}
	if o.cfg.NoCorrection {
		return point(sim), nil
	}
	m := o.model(j.Size())
	if m == nil {
		return point(sim), nil
	}
	// The linear model extrapolates in log space: past the longest wait
	// ever seen its answer is an artefact, not a forecast.
	lim := float64(max(o.maxWait, floor))
	use := append(o.use[:0], m)
	// (A queue that has had every job of the class learns what the class
	// does: the two fits are the same.)
	qk := queueKey(j, sizeClass(j.Size()))
	if q := o.queue[qk]; q != nil && q.seen >= o.cfg.Train && q.seen != m.seen {
		qk[2] = -1
		use = append(use, q, o.queue[qk]) // (the queue's has learnt from at least q's jobs)
	}
	if l := o.user.get(j.User); l != nil && (*l).seen >= o.cfg.Train {
		use = append(use, *l)
	}
	o.use = use
	if len(use) == 1 {
		return point(min(m.forecast(o.x[:], o.cfg.Median), lim)), nil
	}
	clear(o.mix[:])
	for _, l := range use {
		l.fill(o.x[:])
		for k := range o.mix {
			o.mix[k] += l.F[k]
		}
	}
	for k := range o.mix {
		o.mix[k] /= float64(len(use))
	}
	return point(min(decide(&o.mix, o.cfg.Median), lim)), nil
}

// Overfull returns how many of the questions answered so far found the
// running jobs holding more processors than the machine (LANL-CM5's do at
// 41% of the questions scored, examples/forecast's README: its small jobs
// ran in non-dedicated mode). Their simulations grew the pool to hold
// them (Forecaster.Forecast), a rule a report counts.
func (o *Online) Overfull() int { return o.f.overfull }

// Approximated returns how many jobs of flurries (questions at one
// instant) got approximate answers. A flurry of N jobs asks N questions of
// one instant, each a simulation of the jobs ahead of it: N²/2 simulated
// jobs. Online goes on with the simulation of the question before when
// that is the question's own (vanilla EASY on one pool, as the scoreboard
// simulates, run times within the estimates; flurry.go proves it and
// TestFlurryEqualsOwn tests it), and simulates from Now a question whose
// job could have backfilled ahead, or that follows a start or an end at
// the instant. At most 128 questions of an instant are simulated from
// Now; past them the answers are approximate and counted here: a job that
// could have backfilled ahead in the simulation kept (answered with the
// first pass at which it fits, and left out of that simulation), or one
// appended to it after a start or an end that it does not see. So a
// flurry costs 128 simulations of its queue and a step a job, and the
// queue's sums the features read are kept, not walked (ahead.go). No
// archive log reaches the cap (CEA-Curie 96). Other policies, nodes, and
// run times past the estimates are simulated per question up to the cap,
// then the last such simulation goes on, every job appended to it counted
// here (TestFlurryCapped): a flurry of 10,000 jobs of SDSC-BLUE on 144
// nodes of 8 cores, the forecast row, 76.5 s of CPU before, 1.2 s.
func (o *Online) Approximated() int { return o.f.live.approx }

// startsNow reports whether the forward simulation would start j, at
// position pos of the waiting list, at once: it and every job waiting
// ahead of it fit together in the free processors, under the default
// policy (EASY, which starts the queue's jobs in order while they fit) on
// one pool. Another policy or a machine of nodes may not, and is
// simulated.
func (o *Online) startsNow(j *swf.Job, pos int, busy int64) bool {
	p := &o.f.cfg.Policy
	if p.Scheduler != nil || len(p.Nodes) != 0 || p.Peer != sched.PeerNone || j.Size() < 1 {
		return false
	}
	free := max(o.machine, busy) - busy - j.Size()
	if o.fast(pos) {
		procs, _, _, _ := o.ahead.of(j, o.seq)
		return free-procs >= 0
	}
	for i := 0; i < pos && free >= 0; i++ {
		free -= max(o.waiting[i].Size(), 1)
	}
	return free >= 0
}

// fast reports whether the question about the waiting job at pos reads
// the sums of ahead instead of walking the queue: it is the last to have
// arrived (a question at its arrival).
func (o *Online) fast(pos int) bool {
	return !o.loop && o.ahead.on && pos == len(o.waiting)-1 && o.ahead.usable(len(o.waiting))
}

// model is the fitted model for a job of this size: its class's once it
// has learned from Train jobs, else the global one once that has, else nil.
func (o *Online) model(size int64) *ladder {
	if m := o.class[sizeClass(size)]; m != nil && m.seen >= o.cfg.Train {
		return m
	}
	if o.global.seen >= o.cfg.Train {
		return o.global
	}
	return nil
}

// features fills o.x for job j at position pos of the waiting list.
func (o *Online) features(j *swf.Job, pos int, sim, naive float64, busy int64) {
	P := float64(o.f.lastMachine)
	ahead, sameQ, sameQC := 0.0, 0, 0
	oldest := int64(-1)
	k := sizeClass(j.Size())
	qp := partOf(j)
	walk := pos // the waiting jobs walked
	if o.fast(pos) {
		var procs, first int64
		procs, sameQ, sameQC, first = o.ahead.of(j, o.seq)
		ahead = float64(procs)
		if first >= 0 {
			oldest = o.snap.Now - first
		}
		walk = 0
	}
	for i := range walk {
		w := &o.waiting[i]
		ahead += float64(max(w.Size(), 1)) // (an unknown size is 1, as in x[5])
		if w.Queue == j.Queue && (qp < 0 || w.Partition == qp) {
			if oldest < 0 {
				oldest = o.snap.Now - w.Submit
			}
			sameQ++
			if sizeClass(w.Size()) == k {
				sameQC++
			}
		}
	}
	e := float64(o.f.estimate(j))
	x := &o.x
	x[0] = 1
	x[1] = math.Log(sim + floor)
	x[2] = math.Log(naive + floor)
	x[3] = math.Log1p(ahead / P)
	x[4] = float64(busy) / P
	// The size features read an unknown size (SWF's −1) as 1 processor,
	// as the log of the size must and as the quick forecast counts a
	// waiting job of no size (startsNow): x[9] read it as −1/P, a job
	// that gives processors back, x[3] took one from the jobs ahead.
	// The size class (unknownSize) tells such a job from one of 1.
	x[5] = math.Log(float64(max(j.Size(), 1)))
	x[6] = math.Log(max(e, 0) + floor)
	x[7] = 0
	if sim == 0 {
		x[7] = 1
	}
	x[8] = math.Log1p(float64(pos))
	x[9] = float64(max(j.Size(), 1)) / P
	lw, ok := o.lastW[sizeClass(j.Size())]
	if !ok {
		lw = int64(naive)
	}
	x[10] = math.Log(float64(lw) + floor)
	x[11] = math.Log(float64(o.snap.Now-o.waiting[0].Submit) + floor)
	uw := int64(naive)
	x[12] = 0
	if w := o.userW.get(j.User); w != nil && j.User >= 0 {
		x[12], uw = 1, *w
	}
	x[13] = math.Log(float64(uw) + floor)
	x[14] = o.errAvg
	x[15] = o.waitAvg
	x[16], x[17] = 0, 0
	if j.User >= 0 {
		x[16] = math.Log1p(float64(max(o.userQ[j.User]-1, 0)))
		x[17] = math.Log1p(float64(max(o.userR[j.User], 0)))
	}
	x[18] = x[2]
	if r := o.queueW.get([2]int64{j.Queue, qp}); r != nil && len(r.w) > 0 {
		x[18] = math.Log(o.naive.medianOf(r) + floor)
	}
	// Queues open and close by the clock (night production queues,
	// daytime development ones, prime-time limits): the waits of the
	// jobs of the same queue and size asked about at the same hour of
	// earlier days.
	x[19] = x[2]
	if r := o.hourW.get(keyAt(j, o.snap.Now, qp)); r != nil && len(r.w) > 0 {
		x[19] = math.Log(o.naive.medianOf(r) + floor)
	}
	// A scheduler that keeps an order per queue (or partition): the jobs
	// of the job's queue, and of its queue and size class, waiting ahead
	// of it, the age of the oldest of them, and the last wait of its queue
	// and class.
	x[20] = math.Log1p(float64(sameQ))
	x[21] = math.Log1p(float64(sameQC))
	x[22] = math.Log(float64(max(oldest, 0)) + floor)
	x[23] = x[10]
	if w := o.lastQC.get([3]int64{j.Queue, qp, int64(k)}); w != nil {
		x[23] = math.Log(float64(*w) + floor)
	}
	// A partitioned machine runs each size in its own partitions: the
	// running jobs of the job's size class, and how soon the first of
	// them ends.
	nc, soon := 0, int64(-1)
	if !o.loop {
		nc, soon = o.runClass(k, o.snap.Now) // (kept: runsums.go)
	}
	for i := range o.running {
		if !o.loop {
			break
		}
		if sizeClass(o.running[i].Size()) != k {
			continue
		}
		nc++
		if rem := o.runEnd[i].left(o.snap.Now); soon < 0 || rem < soon {
			soon = rem
		}
	}
	x[24] = math.Log1p(float64(nc))
	x[25] = math.Log(float64(max(soon, 0)) + floor)
	// A pod that asks no GPU on a machine of GPUs (its demand line) does
	// not wait for one. 0 for a job without a Demand; the ladders read it
	// once a job with one has arrived (Online.grow).
	x[26] = 0
	if d := j.Demand; d != nil && d.GPUs == 0 {
		x[26] = 1
	}
}

// hourWindow is the number of waits kept per queue, size class and hour
// of the day (about a month of a busy class's jobs at one hour; 10 to 100
// measure alike).
const hourWindow = 20

// hourKey is a queue and partition, a size class and an hour of the day.
type hourKey struct {
	queue int64
	part  int64
	class int
	hour  int
}

// keyAt is the hourKey of job j of partition part asked about at instant
// at. The hour is
// of the log's clock (instants modulo a day): a table keyed by it only
// needs a daily cycle, not its phase, so neither the log's time zone nor
// its start matters.
func keyAt(j *swf.Job, at, part int64) hourKey {
	return hourKey{j.Queue, part, sizeClass(j.Size()), int((at%86400 + 86400) % 86400 / 3600)}
}

// runEnd is a running job's end as predicted when it started (the
// forward simulation's run time) and as its estimate bounds it.
type runEnd struct{ pred, est int64 }

// left is the time the job has left at now: to its predicted end, or once
// past it, as the simulation plays it (half of what is left to its
// estimate, at least a minute).
func (r runEnd) left(now int64) int64 {
	if r.pred > now {
		return r.pred - now
	}
	return max(60, (r.est-now)/2)
}

// learn fits the job's features to its wait from the question.
func (o *Online) learn(j *swf.Job, a asked) {
	w := j.Submit + j.Wait - a.at
	o.errAvg += avgStep * (math.Log(float64(max(w, floor))) - a.x[1] - o.errAvg)
	o.global.add(a.x[:], w)
	k := sizeClass(j.Size())
	m := o.class[k]
	if m == nil {
		m = newLadder(o.cfg.Forget, o.nf)
		o.class[k] = m
	}
	m.add(a.x[:], w)
	if j.User >= 0 {
		o.userLadderOf(j.User).add(a.x[:], w)
	}
	qk := queueKey(j, k)
	if qk[0] < 0 && (qk[1] < 0 || !o.multi) {
		// No queue (SWF's −1), and no partition of several: the class's
		// model is the job's (a log's one partition is its class's).
		return
	}
	all := qk
	all[2] = -1
	if o.queue[all] == nil && o.queues >= maxQueueModels {
		return // a queue past the cap is answered by its class's model alone
	}
	for _, qk := range [2][3]int64{qk, all} {
		q := o.queue[qk]
		if q == nil {
			q = newLadder(o.cfg.Forget, o.nf)
			o.queue[qk] = q
			if qk[2] == -1 {
				o.queues++
			}
		}
		q.add(a.x[:], w)
	}
}

// queueKey is the key of job j's ladder of its queue and size class k
// (−1: of its queue): its queue and its partition.
func queueKey(j *swf.Job, k int) [3]int64 { return [3]int64{j.Queue, partOf(j), int64(k)} }

// partOf is job j's partition (SWF field 16), −1 when it names none. With
// its queue it keys the job's ladders and the histories of its queue: a
// Slurm partition is a set of nodes with its own limits and order, so the
// same queue (or the single queue of a log that has only partitions)
// waits differently in each. On a log of one partition or none the keys
// are the queue's alone, in effect.
func partOf(j *swf.Job) int64 { return max(j.Partition, -1) }

// userLadderOf returns the ladder of the user, whose job has just started,
// moved to the front of o.user. A new user past maxUserModels takes the
// ladder of the user whose last job learnt from started longest ago,
// emptied: in constant time, and a log that numbers a user per job
// allocates no ladder per job.
func (o *Online) userLadderOf(id int64) *ladder {
	l, fresh := o.user.use(id)
	switch {
	case fresh && *l == nil:
		*l = newLadder(o.cfg.Forget, o.nf)
	case fresh:
		(*l).reset()
	}
	return *l
}

// useRing returns key's ring of waits in c, emptied when it is new to the
// key (its array kept); size is ring.size.
func useRing[K comparable](c *lru[K, ring], key K, size int) *ring {
	r, fresh := c.use(key)
	if fresh {
		*r = ring{w: r.w[:0], size: size}
	}
	return r
}

// addTo adds d to m[k], deleting the entry at 0: a user's count of
// waiting jobs or running processors, absent for a user with none, so
// that the map holds the users with jobs in Online, not every user seen.
func addTo[V int | int64](m map[int64]V, k int64, d V) {
	if v := m[k] + d; v != 0 {
		m[k] = v
	} else {
		delete(m, k)
	}
}

func point(w float64) replay.Prediction {
	return replay.Prediction{OK: true, Point: max(w, 0), Lower: math.NaN(), Upper: math.NaN()}
}

// byStartOrder orders running jobs by start, then ID (Online.byStart).
func byStartOrder(a, b swf.Job) int {
	return cmp.Or(cmp.Compare(a.Submit+a.Wait, b.Submit+b.Wait), cmp.Compare(a.ID, b.ID))
}

// sortRunning puts the running jobs of s, Online's snapshot, in start
// order (Online.byStart) before a simulation on nodes reads them.
func (o *Online) sortRunning(s *Snapshot) {
	if !o.byStartOK {
		o.byStart = append(o.byStart[:0], o.running...)
		slices.SortStableFunc(o.byStart, byStartOrder)
		o.byStartOK = true
	}
	s.Running = o.byStart
}
