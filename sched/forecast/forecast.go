package forecast

import (
	"context"
	"errors"
	"fmt"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/predict"
	"github.com/batchq/batchq/swf"
)

// Snapshot is what a forecast starts from: the machine at Now.
//
// Jobs are SWF lines, so a log replay and a live feed fill them alike.
// Now is within 0..2^40 s (sanitize.MaxTime: sched drops a job arriving
// later, so every start would read −1), MachineSize within 1..2^40 (what
// sched simulates). A running job needs Submit + Wait (its start), its size (AllocProcs or
// ReqProcs), ReqTime (the user's estimate; −1 if unknown) and User (for
// history run-time predictors). A waiting job needs its size, ReqTime and
// User; Waiting is in the scheduler's order (highest priority first), which
// the forward simulation keeps: they all arrive at Now in that order.
//
// On a machine of nodes (Config.Policy.Nodes) MachineSize is 0 or the
// nodes' cores, and every job asks for its Demand (its cores spread over
// the nodes without one, with CountMemory its SWF memory too). A snapshot
// does not say where a running job is: the simulation places them again at
// Now, in Running's order, ahead of the waiting jobs (in start order, as
// Online gives them, they land where a first-fit scheduler put them, but
// for the holes of jobs that ended since). One that no longer fits waits,
// as the head of the queue. One that no node could ever hold (more GPUs
// than a node has, more cores than the machine: a snapshot of another
// machine) is a bad snapshot, an error: the simulation cannot hold what it
// holds. So is a running job with no size (Size() ≤ 0): sched would
// reject it, and the forecast would leave it out without a word.
type Snapshot struct {
	Now         int64
	MachineSize int64
	Running     []swf.Job
	Waiting     []swf.Job
}

// Config chooses the policy and the run-time predictor of the forward
// simulation. The zero value is EASY (FCFS backfilling on user estimates)
// simulated with EASY++'s user-history run times (Tsafrir Ch. 4 §4.2:
// the last two jobs of the user, averaged, capped at the estimate).
type Config struct {
	// Policy is the scheduler simulated forward (any sched.Scheduler, a
	// preset's Config, …); its MachineSize is replaced by the snapshot's.
	// Its Nodes (with Placement and CountMemory) make the machine a set of
	// nodes on which each job's swf.Demand is placed, as sched places it:
	// a job waits for GPUs, memory or a node with room, not only for
	// processors (Snapshot). nil is one pool of the snapshot's MachineSize.
	// Its Predictor, if any, is what the policy believes (EASY++'s), not
	// the run times the simulation plays: it is shared by every forecast,
	// so it should be one that needs no per-simulation state.
	Policy sched.Config
	// Runtime predicts the run times the simulation plays instead of the
	// logged ones (which a forecast cannot know): nil means
	// predict.UserHistory's EASY++ default; sched/predict.Perfect is the
	// oracle. It is told every job that ends (Online does this; a caller
	// of Forecast alone feeds it through Terminated itself).
	Runtime sched.RuntimePredictor
	// Train is the number of started jobs the learned correction of Online
	// sees before it replaces the simulated wait: 0 means 200.
	Train int
	// Forget is the learned correction's forgetting factor per job, in
	// (0, 1]: 0 means 0.995 (a memory of about 200 jobs per size class), so it follows
	// drift.
	Forget float64
	// Median makes Online answer the median of its learned wait
	// distribution, which minimizes the mean |log| error, instead of the
	// default: the value likeliest to be within a factor 2 of the wait,
	// less 0.3 times its expected |log10| error. The README's tables
	// score the default only.
	Median bool
	// NoCorrection makes Online answer the simulated wait itself (the
	// ablation: what forward simulation alone gives).
	NoCorrection bool
	// Estimates makes the simulation play the user estimates as run times
	// (what squeue --start does); Runtime is then unused.
	Estimates bool
}

// Validate reports a configuration New would reject.
func (c Config) Validate() error {
	if c.Policy.MachineSize == 0 && len(c.Policy.Nodes) == 0 {
		c.Policy.MachineSize = 1 // (the snapshot gives it; on nodes sched sums their cores)
	}
	if err := c.Policy.Validate(); err != nil {
		return fmt.Errorf("forecast: policy: %w", err)
	}
	if c.Train < 0 {
		return fmt.Errorf("forecast: Train %d < 0", c.Train)
	}
	if !(c.Forget >= 0 && c.Forget <= 1) { // (NaN too: it made every answer a minute)
		return fmt.Errorf("forecast: Forget %v outside (0, 1]", c.Forget)
	}
	return nil
}

// errSnapshot is wrapped by the errors of a snapshot that cannot be
// simulated (no machine, a running job without a start or a size).
var errSnapshot = errors.New("forecast: bad snapshot")

// Forecaster predicts start times by forward simulation. It is not safe
// for concurrent use (it reuses its buffers); use one per goroutine.
type Forecaster struct {
	cfg         Config
	rt          sched.RuntimePredictor
	jobs        []swf.Job
	starts      []int64
	maxRun      int64 // the longest run time told to Terminated (estimate of last resort)
	lastMachine int64 // the machine size of the last simulation
	overfull    int   // simulations whose running jobs held more than the machine (the pool grown)
	cores       int64 // the cores of Config.Policy.Nodes, 0 on one pool
	// On a machine of nodes, placed marks the running jobs that the
	// simulation admitted (Submit hook): sched rejects one no node could
	// hold (sanitize.FitsNoNode), which would free what it holds.
	placed []bool
	// The simulation in progress: the asked jobs are f.jobs[from:to],
	// left of them have not started; ends holds the instants at which
	// the started jobs end.
	from, to int64
	left     int
	keep     bool       // the next simulation may be kept for the next question (question)
	sim      *sched.Sim // the last simulation, Reset for the next one
	// order puts the running jobs of a snapshot in the order the
	// simulation places them before it reads them (Online's, on nodes)
	order func(*Snapshot)
	ends  timeHeap
	obs   sched.Observer // sched.Hooks{Start: f.started}, made once
	q     swf.Job        // runtime's scratch job
	// The simulation kept for the next question of the same instant
	// (flurry.go): gen counts the changes Online was told of (a start,
	// an end), lastAsk is the instant of the last question.
	live    live
	gen     uint64
	lastAsk int64
	// work counts the jobs loaded into simulations, the jobs submitted
	// to one kept and the steps (RunUntil) of all: the cost of the
	// forecasts, which TestFlurryLinear bounds.
	work int64
}

// New returns a Forecaster for cfg.
func New(cfg Config) (*Forecaster, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	f := &Forecaster{cfg: cfg, rt: cfg.Runtime, lastAsk: -1}
	for _, k := range cfg.Policy.Nodes {
		f.cores += k.Count * k.Cores
	}
	f.obs = sched.Hooks{Start: f.started}
	if f.cores > 0 {
		f.obs = sched.Hooks{Start: f.started, Submit: f.submitted}
	}
	f.live.obs = sched.Hooks{Start: f.started, Submit: f.submitted, Reservation: f.reserved}
	f.live.maxOwn = maxOwn
	if f.rt == nil {
		h, err := predict.NewUserHistory(predict.HistoryConfig{})
		if err != nil {
			return nil, err
		}
		f.rt = h
	}
	return f, nil
}

// Terminated tells the run-time predictor that j ended (j.RunTime is its
// actual run time); a caller of Forecast that keeps a Forecaster over time
// calls it for every job that ends. Online calls it itself.
func (f *Forecaster) Terminated(j *swf.Job, now int64) {
	f.gen++ // (the run times predicted change: no simulation kept goes on)
	f.maxRun = max(f.maxRun, j.RunTime)
	f.rt.Terminated(j, now)
}

// maxMachine is the largest machine sched simulates (processors).
const maxMachine = 1 << 40

// Forecast returns the predicted start of each waiting job of s (in
// s.Waiting's order): an instant ≥ s.Now, or −1 for a job the simulation
// cannot place (larger than the machine, or of no size: sched rejects
// it, and the others are simulated without it). The machine is
// s.MachineSize even when the running jobs hold more: the pool grows to
// fit them, not a waiting job larger than s.MachineSize, and stays grown
// (a machine that ran more than its processors, as LANL-CM5's
// non-dedicated small jobs did, can again: taking the excess as the first
// processors to free instead left the forecast within ×2 of 93.0% of
// LANL-CM5's waits, not 93.1%, and the estimates' simulation of 50.2%,
// not 60.2%). A snapshot it cannot simulate
// (see Snapshot: no machine or one above 2^40 processors, Now outside
// 0..2^40 s, a running job without a start in 0..Now or a size, or one no
// node holds; a nil s) is an error naming the cause, never a −1. Cancelled,
// it returns ctx's error; a Config.Policy that stalls, its sched.ErrStall.
func (f *Forecaster) Forecast(ctx context.Context, s *Snapshot) ([]int64, error) {
	if s == nil {
		return nil, fmt.Errorf("%w: nil", errSnapshot)
	}
	if err := f.simulate(ctx, s, nil, len(s.Running), len(s.Waiting)); err != nil {
		return nil, err
	}
	return append([]int64(nil), f.starts[len(s.Running):len(s.Running)+len(s.Waiting)]...), nil
}

// WhatIf returns the predicted start of a hypothetical job j ("if I
// submit n processors for t now"), queued behind every waiting job of s:
// an instant ≥ s.Now, or −1 if it cannot run (larger than the machine).
// A snapshot it cannot simulate is an error, as for Forecast; so is a j
// with no size (AllocProcs and ReqProcs unset, as swf.NewJob leaves them,
// and on a machine of nodes no Demand with cores), which the simulation
// would reject: its −1 read as "larger than the machine".
func (f *Forecaster) WhatIf(ctx context.Context, s *Snapshot, j swf.Job) (int64, error) {
	if s == nil {
		return -1, fmt.Errorf("%w: nil", errSnapshot)
	}
	if j.Size() <= 0 && !(f.cores > 0 && demandCores(&j)) {
		return -1, fmt.Errorf("forecast: the job asked about has no size (allocated %d, requested %d processors)", j.AllocProcs, j.ReqProcs)
	}
	if err := f.simulate(ctx, s, &j, len(s.Running)+len(s.Waiting), 1); err != nil {
		return -1, err
	}
	return f.starts[len(f.starts)-1], nil
}

// estimate is the estimate the simulation uses for j: its own, else the
// longest run seen, else its predicted run time (sched's S6 rule, causal).
func (f *Forecaster) estimate(j *swf.Job) int64 {
	if j.ReqTime > 0 {
		return j.ReqTime
	}
	return f.maxRun
}

// runtime is the run time the simulation plays for j (whole job).
func (f *Forecaster) runtime(j *swf.Job, e, now int64) int64 {
	if f.cfg.Estimates {
		return max(e, 1) // (estimate: the longest run seen when the job has none)
	}
	// The predictor sees j with the simulation's estimate, in a scratch
	// job: a local copy escapes (Predict is an interface call) and costs
	// an allocation per job per forecast, a tenth of a replay's CPU time;
	// the job passed is valid during the call only (sched.RuntimePredictor).
	f.q = *j
	f.q.ReqTime = e
	p := f.rt.Predict(&f.q, now)
	if p <= 0 && e > 0 {
		p = e
	}
	return max(p, 1)
}

// simulate fills f.starts[from:from+count] with the simulated starts of
// the asked jobs, numbered in the order running jobs, waiting jobs, extra
// (if not nil); the other entries of f.starts are not theirs (−1 or a
// start). The simulation stops once every asked job has started: what
// happens after cannot move a start already made, so the starts are those
// of the simulation run to its end (forecast_test's TestEarlyStop), at a
// fraction of its cost when the asked jobs start long before the last
// running job ends. A policy that would stall another job (sched.ErrStall)
// after the asked ones have started is then not reported; the built-in
// ones never stall.
func (f *Forecaster) simulate(ctx context.Context, s *Snapshot, extra *swf.Job, from, count int) error {
	keep := f.keep
	f.keep = false
	f.live.drop()
	switch {
	case f.cores > 0 && s.MachineSize != 0 && s.MachineSize != f.cores:
		return fmt.Errorf("%w: machine size %d, but the nodes have %d cores", errSnapshot, s.MachineSize, f.cores)
	case f.cores == 0 && s.MachineSize <= 0:
		return fmt.Errorf("%w: machine size %d", errSnapshot, s.MachineSize)
	case s.MachineSize > maxMachine:
		// sched takes no more (and the running jobs' processors are held
		// at it): its error named no bad snapshot.
		return fmt.Errorf("%w: machine size %d above 2^40", errSnapshot, s.MachineSize)
	case s.Now < 0 || s.Now > sanitize.MaxTime:
		// Every job arrives at Now, and sched drops a submit time past
		// MaxTime: each forecast would be −1, "cannot run", without error.
		return fmt.Errorf("%w: now %d outside 0..2^40 s", errSnapshot, s.Now)
	}
	if f.order != nil {
		f.order(s)
	}
	n := len(s.Running) + len(s.Waiting)
	if extra != nil {
		n++
	}
	f.jobs = f.jobs[:0]
	busy := int64(0)
	for i := range s.Running {
		r := &s.Running[i]
		start := r.Submit + r.Wait
		// (Wait compared with Now − Submit: a start past 2^63 − 1 wrapped
		// below Now and the job ran from there.)
		if r.Submit < 0 || r.Wait < 0 || r.Wait > s.Now-r.Submit {
			return fmt.Errorf("%w: running job %d has no start in 0..now %d (submit %d, wait %d)", errSnapshot, r.ID, s.Now, r.Submit, r.Wait)
		}
		if r.Size() <= 0 && !(f.cores > 0 && demandCores(r)) {
			// sched would reject it (one pool) or name it "fits no node":
			// either would drop what runs silently or for the wrong cause.
			return fmt.Errorf("%w: running job %d has no size (allocated %d, requested %d processors)", errSnapshot, r.ID, r.AllocProcs, r.ReqProcs)
		}
		elapsed := s.Now - start
		e := f.estimate(r)
		p := f.runtime(r, e, start)
		rem := p - elapsed
		if rem <= 0 {
			// It outlived its prediction: it will run at most to its
			// estimate; take half of what is left of it, at least a
			// minute (the median of what is left is unknown).
			rem = max(60, (e-elapsed)/2)
		}
		remE := max(e-elapsed, rem, 1)
		sj := simJob(int64(len(f.jobs)+1), s.Now, r, rem, remE)
		if f.cores == 0 && sj.AllocProcs > maxMachine {
			// More than sched takes (no sane log's): it holds the whole
			// pool, where sched would drop it as larger than the machine.
			sj.AllocProcs, sj.ReqProcs = maxMachine, maxMachine
		}
		busy = min(busy+f.heldSize(r), maxMachine) // saturates: no wrap
		f.jobs = append(f.jobs, sj)
	}
	add := func(w *swf.Job) {
		e := f.estimate(w)
		p := f.runtime(w, e, s.Now)
		if e <= 0 {
			e = p
		}
		f.jobs = append(f.jobs, simJob(int64(len(f.jobs)+1), s.Now, w, p, e))
	}
	for i := range s.Waiting {
		add(&s.Waiting[i])
	}
	if extra != nil {
		add(extra)
	}
	cfg := f.cfg.Policy
	// A log may hold more running processors than its header's machine:
	// the simulation must at least fit what runs. Nodes cannot grow: a
	// running job that does not fit waits (Snapshot). Nor does the pool
	// grow past the 2^40 processors sched takes: there too what does not
	// fit waits.
	cfg.MachineSize = max(s.MachineSize, busy)
	if f.cores > 0 {
		cfg.MachineSize = f.cores
	} else if cfg.MachineSize > s.MachineSize {
		f.overfull++
		// The pool grew for what runs, not for what waits: a waiting job
		// larger than the snapshot's machine still cannot run (−1, as
		// Forecast says; examples/forecast answers it with the naive
		// median). In the grown pool it was placed once what ran ended.
		for i := len(s.Running); i < len(f.jobs); i++ {
			if j := &f.jobs[i]; j.AllocProcs > s.MachineSize {
				j.AllocProcs, j.ReqProcs = cfg.MachineSize+1, cfg.MachineSize+1
			}
		}
	}
	f.lastMachine = cfg.MachineSize
	f.starts = f.starts[:0]
	for range n {
		f.starts = append(f.starts, -1)
	}
	// The last simulation is done with (f.live dropped it above): Reset
	// reuses its jobs' memory, allocated once instead of at each
	// question (BenchmarkOnlineFlurry: 253.5 MB an op before).
	sim := f.sim
	if sim == nil || sim.Reset(cfg) != nil {
		var err error
		if sim, err = sched.New(cfg); err != nil {
			return err
		}
	}
	f.sim = sim
	f.from, f.to, f.left = int64(from), int64(from+count), count
	f.ends = f.ends[:0]
	rec := keep && extra == nil && f.keepable(s)
	// A policy the flurry note's proof does not cover keeps the
	// simulation of the last question simulated from Now at the instant
	// (maxOwn's), to go on with approximately, without notes.
	keepOnly := keep && extra == nil && !rec && f.live.sims >= f.live.maxOwn
	if rec {
		f.live.begin(len(f.jobs))
		sim.Observe(f.live.obs)
	} else {
		sim.Observe(f.obs)
	}
	f.work += int64(len(f.jobs)) + 1
	if err := sim.Load(f.jobs); err != nil {
		return err
	}
	// Advance from one end of a running job to the next until every
	// asked job has started. RunUntil processes the events in time order,
	// so where the simulation stops cannot move a start already made;
	// stepping to the earliest end still ahead (the next instant at which
	// processors free up, estimate expiries before it included) stops it
	// at most one step past the asked jobs' last start. An end that sched
	// plays earlier than start + run would only make a step longer.
	if err := ctx.Err(); err != nil { // (as sched.Run: a cancelled context simulates nothing)
		return err
	}
	f.placed = f.placed[:0]
	if f.cores > 0 {
		for range s.Running {
			f.placed = append(f.placed, false)
		}
	}
	if err := sim.RunUntil(s.Now); err != nil {
		return err
	}
	if rec {
		f.note(sim)
	}
	for i, ok := range f.placed { // (every job arrives at Now)
		if !ok {
			r := &s.Running[i]
			return fmt.Errorf("%w: running job %d (%d processors) fits no node of the machine", errSnapshot, r.ID, r.Size())
		}
	}
	for f.left > 0 && len(f.ends) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		t := f.ends.pop()
		if t <= sim.Now() {
			continue
		}
		f.work++
		if err := sim.RunUntil(t); err != nil {
			return err
		}
		if rec {
			f.note(sim)
		}
	}
	if (rec || keepOnly) && f.left == 0 {
		f.live.keep(sim, s, f.gen, cfg.MachineSize, cfg.MachineSize > s.MachineSize)
		f.live.exact = rec
	}
	if f.left > 0 {
		// Nothing known runs and an asked job has not started: one that
		// cannot run, or a policy that stalls (its error is the answer).
		if _, err := sim.Finish(); err != nil {
			return err
		}
	}
	return nil
}

// started is the forward simulation's Start hook: it records an asked
// job's start and the instant every started job ends.
func (f *Forecaster) started(now int64, j *swf.Job, _ bool) {
	f.ends.push(now + max(j.RunTime, 1))
	if f.live.rec {
		f.live.started(now, j)
	}
	if k := j.ID - 1; k >= f.from && k < f.to && f.starts[k] < 0 {
		f.starts[k] = now
		f.left--
	}
}

// submitted is the forward simulation's Submit hook on a machine of
// nodes: it marks the running jobs admitted.
func (f *Forecaster) submitted(_ int64, j *swf.Job) {
	if k := j.ID - 1; k < int64(len(f.placed)) {
		f.placed[k] = true
	}
	if f.live.rec {
		f.live.admitted(j)
	}
}

// timeHeap is a min-heap of instants (the ends of the running jobs of a
// simulation).
type timeHeap []int64

func (h *timeHeap) push(t int64) {
	*h = append(*h, t)
	a := *h
	for i := len(a) - 1; i > 0; {
		p := (i - 1) / 2
		if a[p] <= a[i] {
			break
		}
		a[p], a[i] = a[i], a[p]
		i = p
	}
}

func (h *timeHeap) pop() int64 {
	a := *h
	t := a[0]
	n := len(a) - 1
	a[0] = a[n]
	a = a[:n]
	for i := 0; ; {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && a[c+1] < a[c] {
			c++
		}
		if a[i] <= a[c] {
			break
		}
		a[i], a[c] = a[c], a[i]
		i = c
	}
	*h = a
	return t
}

// simJob is j as the forward simulation plays it: arriving at now with run
// time run and estimate est, numbered id (the snapshot's order), asking
// what j asks of a machine of nodes (its Demand, shared: sched only reads
// it; its SWF memory for CountMemory).
//
// Run time and estimate are held at sanitize.MaxTime, as sched holds
// predictions: sched drops a job whose estimate is past it, and a running
// job's processors would then be free, a waiting job's start −1.
func simJob(id, now int64, j *swf.Job, run, est int64) swf.Job {
	run, est = min(run, sanitize.MaxTime), min(est, sanitize.MaxTime)
	s := swf.NewJob()
	s.ID, s.Submit, s.RunTime, s.AllocProcs, s.ReqProcs, s.ReqTime = id, now, run, j.Size(), j.Size(), est
	s.User, s.Group, s.Executable, s.Queue, s.Partition = j.User, j.Group, j.Executable, j.Queue, j.Partition
	s.Demand, s.ReqMemory, s.UsedMemory = j.Demand, j.ReqMemory, j.UsedMemory
	return s
}

// heldSize is the processors a running job holds, as the simulation
// holds it: on nodes a demand's cores where sched sizes the job by them
// (sched's admit: its size is unknown, SWF's −1, as a GPU trace's CPU
// jobs' are, or its processors are neither its demand's cores nor split
// among its nodes, a GPU trace's GPUs), else its size; at most
// maxMachine, as the simulation holds a pool's. A job of no size the
// simulation does not size (none runs: Observe keeps none, simulate
// refuses one) would count 1, as the features read it. The count added
// was the size itself: −1 for a job of unknown size on nodes, and a GPU
// job's GPUs where the simulation holds its cores. At most 2^40 a job,
// sums of 2^23 of them fit in int64 (three jobs of a corrupt 2^62
// processors wrapped the busy count to −2^62, and the job asked about
// "started now" on a full machine).
func (f *Forecaster) heldSize(j *swf.Job) int64 {
	s := j.Size()
	if f.cores > 0 && demandCores(j) {
		d := j.Demand
		n := max(d.Nodes, 1)
		// (simJob gives the simulation's job this size as its requested
		// one too: sched's second test of a split is this one.)
		if c := n * d.Cores; c != s && !(s > 0 && s/n+min(s%n, 1) == d.Cores) {
			s = c // at most 2^60: Validate bounds Cores by 2^40
		}
	}
	return min(max(s, 1), maxMachine)
}

// demandCores reports whether j's demand gives the cores it holds: on
// nodes sched sizes such a job from its demand, even with no processors
// (a CPU job of a GPU trace, whose processors are its GPUs), as sched's
// demandCores: a valid demand of cores on at most 2^20 nodes (more is
// no size to sched, not a job that fits no node).
func demandCores(j *swf.Job) bool {
	return j.Demand != nil && j.Demand.Cores > 0 && j.Demand.Nodes <= 1<<20 && j.Demand.Validate() == nil
}
