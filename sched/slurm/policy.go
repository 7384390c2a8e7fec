package slurm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/batchq/batchq/internal/denseid"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// Policy is Slurm's scheduling of one site's configuration on one
// machine: multifactor priority, the main scheduler and sched/backfill.
// It is a sched.Scheduler that keeps state across passes (usage, the
// priority-ordered queue, the times of its cycles). Run simulates once;
// plugged into successive simulations (sched/forecast), it starts afresh
// from the configuration whenever the clock goes back. It is not safe for
// concurrent use.
type Policy struct {
	cfg  Config
	mach sched.Config
	// pp keeps main scheduler starts off the failed partitions' nodes
	// under Run when partitions lie on some nodes (confine.go).
	pp *partPlace

	// The machine as Slurm counts it: nodes (node_record_count), CPUs
	// (cluster_cpus), and the CPUs of one node, which a backfill
	// reservation holds whole. One pool of P processors is P nodes of one
	// CPU.
	nodes, cpus, perNode int64

	parts      []part
	partByName map[string]int
	defPart    int
	maxPartJF  int64
	qosMax     int64
	tree       *tree

	jobs    jobIndex  // waiting and running
	queue   []*jobRec // waiting, in Slurm's order once sorted
	sorted  bool
	left    int // jobs in queue that left it (started, ended)
	running []*jobRec
	// Unrunnable counts the jobs no partition lets start, by reason.
	unrunnable map[string]int
	// defaulted counts, by rule, the jobs given a value their line did
	// not give (Defaulted).
	defaulted map[string]int
	// overKill counts by {ID, submit, limit} the jobs Run cancels at
	// submission for a kill time past 2^40 s (limits, isOverKill).
	overKill map[[3]int64]int

	// The clocks. slurmctld is taken to start at simulated time 0, so
	// its periodic threads tick on grids from 0: calculations at
	// k·CalcPeriod (lastRan is the last one, g_last_ran), periodic main
	// scheduler runs at k·SchedInterval. started: the first job was seen.
	started           bool
	nextCalc, lastRan int64
	// The main scheduler: lastMain is its last run of any kind
	// (sched_min_interval), lastSched the background loop's last run
	// (batch_sched_delay), lastFull the last periodic tick. mainPending: a
	// run is queued for the background loop (queue_job_scheduler);
	// mainSoon: one is asked of the scheduler thread (schedule(): by the
	// loop, or at once by an end with an Epilog), which makes it
	// SchedMinInterval after its last (mainDue); fullAsked: that run is
	// over the whole queue (a periodic tick asked it); fullPending:
	// something changed since the last periodic run.
	lastMain, lastSched, lastFull int64
	mainPending, mainSoon         bool
	mainAt, soonAt                int64 // when the pending run was queued (mainPending), first asked (mainSoon)
	fullAsked                     bool
	fullPending                   bool
	// Backfill: bfLast is the last cycle (run, or passed over because it
	// could start nothing), evAt the first event (last_job_update) at or
	// after it (never: none) and evLast the latest; bfWaiting: jobs waited
	// after the last pass; bfDirty: something that may let a job start
	// changed since the last cycle that ran.
	bfLast, evAt, evLast int64
	bfWaiting, bfDirty   bool
	noFit                bool // the last cycle or pass found no waiting job fits in the free CPUs
	// bfStill: the last cycle that ran started no job and tried none;
	// bfBeyond: no later than the earliest start of a job it left beyond
	// bf_window (never: none): plan.fit stops looking at the window's
	// end, so it is a lower bound, which is all calc's skip needs. A calculation that leaves the order as it was then changes
	// nothing for backfill until a job enters the window (see calc).
	bfStill    bool
	bfBeyond   int64
	freeAfter  int64 // the free CPUs after the last pass, -1 after an end
	batchDelay int64
	observed   bool // Run's observer reports submissions and ends
	lastNow    int64
	sim        *sched.Sim
	armed      int64 // the earliest wake-up still to come (Run)
	// pending is the times of the wake-ups still to come, latest first:
	// arm asks only for one before every other, so it is a stack whose
	// top is the earliest, and the next to come (wake pops it).
	pending []int64
	wakeFn  func(int64) // wake, as one func value
	decayF  float64
	// pow[k] is decayF^powDt[k]: k = 0 for the jobs that ran since the
	// last calculation, which share their Δ, 1 for one that started since.
	powDt [2]int64
	pow   [2]float64
	// powTab[dt] is decayF^dt once computed (0: not yet), for dt up to
	// the calculation period (decayPow).
	powTab                    []float64
	calcPeriod, maxAge, bfInt int64
	bfWin, bfRes, bfTest      int64
	// epoch is Config.UnixStart: the named-node plan's grids lie on it.
	epoch            int64
	schedInt, minInt int64

	endsOK     bool // running is sorted by end
	pendingUse []pendingUse
	seq        uint64
	plan       plan
	ns         *nodeSpace  // Run's backfill plan on named nodes (nodeplan.go); nil: the pool plan
	beyond     []beyondJob // jobs a backfill cycle found beyond bf_window (beyondOf)
	least      []int64
	// queueGen counts the changes of the queue's waiting jobs or their
	// order; leastGen is its count when least was made.
	queueGen, leastGen uint64
	// minWait is no more than the fewest CPUs a waiting job asks: exact
	// when least is made, lowered by each arrival (a job leaving leaves
	// it a lower bound).
	minWait int64
	perUsr  map[int64]int64
	w       weights // priority's weights (weights)
	// recs is where the next records are made, a block at a time: one
	// allocation per 256 arrivals rather than one each.
	recs []jobRec
	// eagerCalc: Run wakes for every calculation, and a pass sets no
	// noFit of its own (Schedule), so Run also wakes for the periodic runs
	// and backfill checks that start nothing (TestLazyCalcSame* compare
	// the schedules).
	eagerCalc bool
	// stepAll: catchUp and backfillDue step through every calculation
	// and backfill check they would pass over (the tests' reference);
	// skips counts those passed over.
	stepAll bool
	skips   int64
	// calcs counts the calculations done (calc), those passed over not:
	// the tests bound the cost of a quiet span by it.
	calcs int64
	// cycSkips counts the calculations cycle passed over.
	cycSkips int64
	// leaps counts the calculations leap passed over, flatLooks the
	// looks flatLook made, flatEvals the calculations they computed,
	// flatCerts the certificates they asked; flat is their scratch
	// (stillflat.go). flatOff (the tests' switch) turns the closed form
	// off: the looks and catch-ups step every calculation.
	leaps, flatLooks, flatEvals, flatCerts int64
	flat                                   flatRun
	flatOff                                bool
	// wakes counts Run's wake-ups (the tests bound a quiet span's).
	wakes int64
	// passAt is the time of Run's last pass; stillSkip: arm left the
	// calculations before stillUntil's time without a wake-up, tickSkip
	// the periodic ticks (heldFull), their passes to catchUp's stillPass
	// (stillspan.go).
	passAt              int64
	stillSkip, tickSkip bool
	stillLazy           bool // the calculations passed over compute no priorities
	// runGen counts the starts and ends (Run): the tree's usage then
	// goes on as before, calculation after calculation. fsChange's last
	// look ahead, made at fsGen from fsFrom: no user's rank changes at
	// the calculations before fsUntil, which changes one if fsHit.
	runGen, fsGen   uint64
	fsFrom, fsUntil int64
	// fsStart: the next calculation when stillUntil first asked fsStill
	// (fsSeen) since the jobs last started or ended (fsRun).
	fsRun    uint64
	fsStart  int64
	fsSeen   bool
	fsHit    bool
	fsLooked bool
	fsSave   fsSave // fsChange's scratch
	csQueue  uint64 // the queueGen of csChange's last look ahead
	// cyc is the tree's state at the last fold of the decay scale in
	// this catch-up, made at its calculation cycAt (see cycle); cycNew
	// is the one being compared with it.
	cyc, cycNew []uint64
	cycAt       int
	// ctx is Run's context: a catch-up that still steps (fair share
	// weighted) looks at it now and then, and stops (cut) once it is done,
	// as the catch-up of a span near 2^40 seconds takes minutes.
	ctx context.Context
	cut bool
}

// jobRec is what the policy keeps of a waiting or running job. Its
// fields go by use, 192 bytes in three cache lines (records are made in
// blocks, so each starts a line): the first holds what a calculation,
// the queue's order and a backfill cycle's walk read of every job; the
// second what backfill and the main scheduler read of a job they test;
// the third the rest.
type jobRec struct {
	running, gone bool // started; ended or cancelled: out of the queue
	// excl: the job holds whole nodes (swf.Demand.Exclusive, on a
	// machine of nodes): a plan counts their CPUs (whole), not cpus.
	excl bool
	// out: running, gone or held (the loops over the queue pass it over):
	// one test for the three, set wherever they are.
	out        bool
	cpus       int64
	limit      int64 // the time limit, seconds
	prio       int64
	tier       int64
	submit, id int64
	assoc      int // the user association in the fair-share tree

	held             string  // why no partition can run it ("" if it can)
	jsW, partW, qosW float64 // weighted job size, partition and QOS factors
	start            int64
	res              int64 // the reservation last told the simulator (-1: none)
	minNodes         int64

	user  int64
	part  int
	qos   string
	seen  uint64     // the last pass that saw it waiting (without Run)
	ptr   *sched.Job // the handle sync last saw: another simulation's job of its ID has another
	whole int64      // the CPUs of the whole nodes its reservation holds (wholeNodes)
	_     [8]byte    // to 192 bytes
}

// part is a partition as the policy uses it.
type part struct {
	Partition
	nodes int64 // its node count (the machine's if Nodes is nil)
	// on tells, by the machine's node index, the nodes of a partition
	// over some of them, named through Config.NodeNames (nil: every
	// node, or names not known); Run confines its jobs to those
	// (confine.go).
	on []bool
}

const (
	never    = math.MaxInt64
	yearSecs = 365 * 24 * 3600
	// defQueueDepth is default_queue_depth: the jobs a main scheduler run
	// triggered by an event tests (a periodic run tests them all).
	defQueueDepth = 100
)

// New checks site and machine and returns the policy. machine describes
// the machine (MachineSize for one pool of processors, or Nodes) and the
// simulator's options; its Scheduler must be nil, since the Policy is it.
// On a machine of Nodes without a Placement, a job on one node goes where
// select/cons_tres puts it (tightest run of nodes, then best fit in it).
func New(site Config, machine sched.Config) (*Policy, error) {
	if err := site.Validate(); err != nil {
		return nil, err
	}
	if machine.Scheduler != nil {
		return nil, errors.New("slurm: machine.Scheduler must be nil: the Policy is the scheduler")
	}
	if err := machine.Validate(); err != nil {
		return nil, fmt.Errorf("slurm: machine: %w", err)
	}
	p := &Policy{cfg: site, mach: machine, unrunnable: map[string]int{}, defaulted: map[string]int{},
		perUsr: map[int64]int64{}, armed: never, minWait: never}
	if len(machine.Nodes) > 0 {
		if machine.Placement == nil {
			p.mach.Placement = consTres{} // select/cons_tres's node choice
		}
		for _, n := range machine.Nodes {
			p.nodes += n.Count
			p.cpus += n.Count * n.Cores
		}
		p.perNode = max(1, p.cpus/max(p.nodes, 1))
	} else {
		p.nodes, p.cpus, p.perNode = machine.MachineSize, machine.MachineSize, 1
	}
	p.partByName = map[string]int{}
	p.defPart = -1
	for i, pt := range site.Partitions {
		n := p.nodes
		if pt.Nodes != nil {
			n = int64(len(pt.Nodes))
		}
		p.parts = append(p.parts, part{Partition: pt, nodes: n})
		p.partByName[pt.Name] = i
		p.maxPartJF = max(p.maxPartJF, pt.PriorityJobFactor)
		if pt.Default && p.defPart < 0 {
			p.defPart = i
		}
	}
	if err := p.mapNodes(); err != nil {
		return nil, err
	}
	if len(p.parts) == 0 {
		p.parts = []part{{Partition: Partition{Name: "default", Default: true}, nodes: p.nodes}}
		p.partByName["default"] = 0
	}
	if p.defPart < 0 {
		p.defPart = 0
	}
	for _, v := range site.QOS {
		p.qosMax = max(p.qosMax, v)
	}
	p.tree = newTree(&site)
	p.calcPeriod = or(site.CalcPeriod, 300)
	p.maxAge = or(site.MaxAge, 7*24*3600)
	p.bfInt = or(site.BackfillInterval, 30)
	p.bfWin = or(site.BackfillWindow, 24*3600)
	p.bfRes = or(site.BackfillResolution, 60)
	p.epoch = site.UnixStart
	p.bfTest = or(site.BackfillMaxJobTest, 500)
	p.schedInt = or(site.SchedInterval, 60)
	p.minInt = max(site.SchedMinInterval, 0)
	p.batchDelay = max(or(site.BatchSchedDelay, 3), 0)
	switch hl := site.DecayHalfLife; {
	case hl == 0:
		p.decayF = 1 - 0.693/float64(7*24*3600)
	case hl > 0:
		p.decayF = 1 - 0.693/float64(hl)
	default:
		p.decayF = 1
	}
	return p, nil
}

func or(v, def int64) int64 {
	if v == 0 {
		return def
	}
	return v
}

// Name is "slurm", or "slurm/builtin" with Config.Builtin.
func (p *Policy) Name() string {
	if p.cfg.Builtin {
		return "slurm/builtin"
	}
	return "slurm"
}

// Priority returns the current priority of waiting job id, as sprio
// shows it: the one Slurm last computed (at submission or at the last
// PriorityCalcPeriod), false if the job is not waiting. An Observer's
// OnStart still sees the priority the job starts with (sacct's). After a
// cancelled Run whose catch-up of a long quiet stretch stopped short
// (see Run) it reports none: the last priorities computed are stale.
func (p *Policy) Priority(id int64) (int64, bool) {
	r, ok := p.jobs.get(id)
	if !ok || r.running || p.cut {
		return 0, false
	}
	return r.prio, true
}

// queueZeroRule is Defaulted's name for a job of queue 0 that no name
// makes a partition (noQueue).
const queueZeroRule = "queue_0_no_partition"

// name turns an SWF number into Slurm's name through m.
func name(m map[int64]string, v int64) string {
	if s, ok := m[v]; ok {
		return s
	}
	return strconv.FormatInt(v, 10)
}

// newRec builds the record of a job arriving now: its association,
// partition, QOS and time limit, and whether its partition can ever run
// it. limit ≤ 0 means none given (the partition's DefaultTime or MaxTime
// applies). It does not compute the priority.
func (p *Policy) newRec(j *swf.Job, size, demandNodes, limit int64) *jobRec {
	if len(p.recs) == 0 {
		p.recs = make([]jobRec, 256)
	}
	r := &p.recs[0]
	p.recs = p.recs[1:]
	*r = jobRec{id: j.ID, submit: j.Submit, user: j.User, cpus: size, minNodes: max(demandNodes, 1), res: -1}
	r.excl = j.Demand != nil && j.Demand.Exclusive && len(p.mach.Nodes) > 0
	if len(p.mach.Nodes) == 0 {
		r.minNodes = max(size, 1) // one pool: a node per processor
	}
	r.part = p.partOf(j)
	if len(p.cfg.Partitions) > 0 {
		if p.noQueue(j.Queue) {
			if j.Queue == 0 {
				p.defaulted[queueZeroRule]++
			}
		} else if _, ok := p.partByName[name(p.cfg.PartitionNames, j.Queue)]; !ok {
			r.held = "unknown partition"
		}
	}
	pt := &p.parts[r.part]
	r.tier = pt.PriorityTier
	if limit <= 0 {
		limit = or(pt.DefaultTime, pt.MaxTime)
		if limit <= 0 {
			limit = yearSecs
		}
	}
	r.limit = min(limit, 1<<40) // Slurm's limits are 32-bit minutes
	if r.held == "" {
		switch {
		case pt.MaxTime > 0 && limit > pt.MaxTime:
			r.held = "time limit above the partition's MaxTime"
		case pt.MaxNodes > 0 && r.minNodes > pt.MaxNodes:
			r.held = "more nodes than the partition's MaxNodes"
		case len(p.mach.Nodes) > 0 && r.minNodes > pt.nodes:
			r.held = "more nodes than the partition has"
		}
	}
	r.out = r.held != ""
	r.qos = "normal"
	if j.Partition >= 0 {
		r.qos = name(p.cfg.QOSNames, j.Partition)
	}
	r.assoc = p.assocOf(j)
	return r
}

// userSlot is tree.byUser's entry: User's last Group and its association.
type userSlot struct {
	group int64
	assoc int
	ok    bool
}

// denseUsers bounds tree.byUser: at most 24 bytes a User below it.
const denseUsers = 1 << 16

// assocOf returns the user association a job runs under: its user under
// its account (SWF Group), else under the user's first account, created
// with one share if the tree does not have it. A job without a user
// (SWF's −1; Slurm has none) runs under user "-1": the user-less jobs of
// a trace are one association, so that on a trace without users fair
// share gives every job the same factor, as no users means, rather than
// an association per job, each new and so first in line.
func (p *Policy) assocOf(j *swf.Job) int {
	// The association of a (user, group) pair never changes: remember it
	// rather than build the names again for every job. A pair of 32-bit
	// numbers (every archive log's) is one int64 key, whose map is the
	// faster; others go by the pair.
	if j.User == int64(int32(j.User)) && j.Group == int64(int32(j.Group)) {
		key := j.User<<32 | int64(uint32(j.Group))
		t := p.tree
		if t.last32OK && t.last32Key == key {
			return t.last32
		}
		u := j.User
		if uint64(u) < uint64(len(t.byUser)) {
			if s := t.byUser[u]; s.ok && s.group == j.Group {
				t.last32Key, t.last32, t.last32OK = key, s.assoc, true
				return s.assoc
			}
		}
		i, ok := t.byNum32[key]
		if !ok {
			i = p.assocByName(j)
			t.byNum32[key] = i
		}
		t.last32Key, t.last32, t.last32OK = key, i, true
		if u >= 0 && u < denseUsers {
			if u >= int64(len(t.byUser)) {
				t.byUser = denseid.Grow(t.byUser, u, denseUsers)
			}
			t.byUser[u] = userSlot{group: j.Group, assoc: i, ok: true}
		}
		return i
	}
	key := [2]int64{j.User, j.Group}
	if i, ok := p.tree.byNum[key]; ok {
		return i
	}
	i := p.assocByName(j)
	p.tree.byNum[key] = i
	return i
}

func (p *Policy) assocByName(j *swf.Job) int {
	user := name(p.cfg.UserNames, j.User)
	acct := "root"
	if len(p.cfg.Associations) > 0 {
		acct = ""
		if j.Group >= 0 {
			acct = name(p.cfg.AccountNames, j.Group)
		}
		if _, ok := p.tree.byName[[2]string{acct, user}]; !ok {
			if d, ok := p.tree.defAcct[user]; ok {
				acct = d
			} else if acct == "" {
				acct = "root"
			}
		}
	}
	i := p.tree.user(user, acct, 1, 0)
	p.tree.activate(i) // a job maps to it: it may get usage
	return i
}
