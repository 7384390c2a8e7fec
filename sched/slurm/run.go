package slurm

import (
	"context"
	"errors"
	"maps"
	"math"
	"slices"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// Run simulates jobs under the policy on its machine and returns the
// simulator's Result (Result.Policy is Name). It is the whole Slurm loop:
// wake-ups at every PriorityCalcPeriod while jobs wait and one may start
// (otherwise the next arrival or end catches the calculations up with
// their own times, the same schedule), at the next backfill cycle and
// periodic main scheduler run while jobs wait, and a main scheduler run
// at submissions and ends. Jobs are killed at the first limit check
// (Config.KillCheck, 30 s) at or after their time limit plus
// OverTimeLimit (sched.Config.KillAtEstimate and KillCheck); a
// job without a limit gets its partition's DefaultTime, else MaxTime,
// else a year (Slurm's UNLIMITED in backfill). A job its partition can
// never run (Unrunnable says why) is cancelled at submission, as Slurm
// with EnforcePartLimits=ALL rejects it. The observers are told
// everything as in sched.Run. A Policy runs once (a call whose ctx is
// already done does not count: it returns ctx's error at once; one done
// while the jobs are prepared and loaded is heard every few thousand jobs
// and spends the Policy).
//
// Cancelled, Run returns ctx's error. The calculations due by then are
// caught up, so that Priority reads what a wake-up at each would have
// left; but with fair share weighted a catch-up steps through them (up
// to a few cycles of the decay scale, 1.3·10^6 calculations each under
// the defaults), and once ctx is done it stops after 65,536 of them (227
// days of five minutes): Priority then reports no priority rather than
// stale ones. A look ahead over a still stretch (stillspan.go), which
// steps calculations too, stops within as many.
func (p *Policy) Run(ctx context.Context, jobs []swf.Job, obs ...sched.Observer) (*sched.Result, error) {
	if p.sim != nil || p.started {
		return nil, errors.New("slurm: a Policy simulates once: make a new one with New")
	}
	if err := ctx.Err(); err != nil {
		// Before the jobs are prepared and loaded: the Policy is not
		// spent. (Once loading started, a cancellation is heard every
		// loadEvery jobs and spends it.)
		return nil, err
	}
	if p.confined() {
		// Each node carries its partitions' resources (confine.go).
		p.mach.Nodes = p.confineMachine()
	}
	cfg := p.mach
	cfg.Scheduler = p
	cfg.KillAtEstimate = true
	cfg.KillCheck = p.killCheck()
	if p.usesNodePlan() {
		// Backfill plans on named nodes (nodeplan.go): the placement
		// tells where each job went.
		p.ns = newNodeSpace(p.mach.Nodes)
		cfg.Placement = &nodePlace{inner: cfg.Placement, ns: p.ns}
	}
	if p.confined() {
		// The main scheduler keeps later jobs off the nodes of the
		// partitions that failed in its run (confine.go).
		p.pp = &partPlace{inner: cfg.Placement, removed: make([]bool, p.nodes)}
		cfg.Placement = p.pp
	}
	s, err := sched.New(cfg)
	if err != nil {
		return nil, err
	}
	p.sim, p.observed, p.ctx = s, true, ctx
	s.Observe(runObserver{p})
	for _, o := range obs {
		s.Observe(o)
	}
	// The passes over the jobs hear ctx every loadEvery jobs, as Load
	// does (the Policy is spent).
	if jobs, err = p.limits(ctx, jobs); err != nil {
		return nil, err
	}
	if jobs, err = p.exclusive(ctx, jobs); err != nil {
		return nil, err
	}
	jobs = p.confine(jobs)
	// Every user's association exists from the start, as in Slurm's
	// database, so that the tree does not change during the run.
	var last int64
	for i := range jobs {
		if i%loadEvery == loadEvery-1 && ctx.Err() != nil {
			break // LoadContext returns ctx's error; the Policy is spent
		}
		p.assocOf(&jobs[i])
		// A submit time past sanitize.MaxTime is rejected by Load (time
		// out of range): stepping to it would wrap t past 2^63 and never
		// end (a log line with submit 2^63−1 hung the run).
		if jobs[i].Submit <= sanitize.MaxTime {
			last = max(last, jobs[i].Submit)
		}
	}
	// Loading hears ctx every few thousand jobs: a deadline that passes
	// while a large log loads is heard then, not after it (the Policy is
	// spent, as after any cancellation once it started).
	if err := s.LoadContext(ctx, jobs); err != nil {
		return nil, err
	}
	// Run a simulated hour at a time, checking ctx between, to the last
	// arrival; Finish runs the rest. (An hour: a site of 10^5
	// associations costs seconds a simulated day in fair share. A log
	// whose arrivals span more than about 11 years takes longer steps,
	// so that the steps stay at most 10^5.)
	step := max(3600, (last-s.Now())/100000)
	for t := s.Now(); t <= last; {
		if err := ctx.Err(); err != nil {
			// The calculations a quiet stretch left to its next event,
			// so that Priority tells what a wake-up at each would have.
			p.catchUp(s.Now())
			return nil, err
		}
		t += step
		// With ctx: a step can hold many instants (a heavy queue, or a
		// step of days on a log spanning decades).
		if err := s.RunUntilContext(ctx, t); err != nil {
			p.catchUp(s.Now())
			return nil, err
		}
	}
	res, err := s.FinishContext(ctx)
	if err != nil && ctx.Err() != nil {
		p.catchUp(s.Now())
	}
	if err == nil && p.cut {
		// A catch-up stopped short: the schedule is not Slurm's.
		return nil, ctx.Err()
	}
	return res, err
}

// loadEvery is how many jobs the association loop prepares between two
// looks at Run's context (as sched's Load does).
const loadEvery = 4096

// limits returns jobs with each time limit as Slurm enforces it in
// ReqTime: a job without one gets its partition's, and OverTimeLimit is
// added. It copies only if some job changes. It returns ctx's error once
// ctx is done (looked at every loadEvery jobs).
func (p *Policy) limits(ctx context.Context, jobs []swf.Job) ([]swf.Job, error) {
	otl := p.cfg.OverTimeLimit
	need := otl > 0
	for i := 0; i < len(jobs) && !need; i++ {
		need = jobs[i].ReqTime <= 0
	}
	if !need {
		return jobs, nil
	}
	out := make([]swf.Job, len(jobs))
	copy(out, jobs)
	var over []int // the lines counted in overKill
	for i := range out {
		if i%loadEvery == loadEvery-1 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		j := &out[i]
		if j.ReqTime <= 0 {
			pt := &p.parts[p.partOf(j)]
			j.ReqTime = or(pt.DefaultTime, pt.MaxTime)
			if j.ReqTime <= 0 {
				j.ReqTime = yearSecs
			}
		}
		if j.ReqTime <= sanitize.MaxTime && j.ReqTime > sanitize.MaxTime-otl && sanitize.Check(j, p.cpus) == sanitize.SaneJob {
			// The limit is in range, its kill time is not: the job was
			// rejected as "time out of range", which named no culprit.
			// It keeps its limit, so that Load takes it, and OnSubmit
			// cancels it with the reason (overKill). (A job not sane
			// otherwise is rejected for that, whatever its limit.)
			if p.overKill == nil {
				p.overKill = map[[3]int64]int{}
			}
			p.overKill[[3]int64{j.ID, j.Submit, j.ReqTime}]++
			over = append(over, i)
			continue
		}
		// Saturated: a limit near 2^63 (a hostile log line) wrapped
		// negative, read as no limit, and the job was simulated with a
		// filled-in estimate instead of rejected as time out of range.
		j.ReqTime = satAdd(j.ReqTime, otl)
	}
	if len(over) > 0 {
		p.overKeys(out, over)
	}
	return out, nil
}

// overKeys drops from overKill the keys whose first sane line in out is
// not one of over (those limits counted there): a line in range whose
// limit plus OverTimeLimit is an over-kill line's limit, with its ID and
// submit time, has its key. Of lines of one ID Load keeps the first sane
// one and rejects the others as duplicates, so the key is that line's
// (it was cancelled as past 2^40 s when it came first).
func (p *Policy) overKeys(out []swf.Job, over []int) {
	first := map[[3]int64]bool{}
	for i := range out {
		isOver := len(over) > 0 && over[0] == i
		if isOver {
			over = over[1:]
		}
		j := &out[i]
		k := [3]int64{j.ID, j.Submit, j.ReqTime}
		if p.overKill[k] == 0 || first[k] || !isOver && sanitize.Check(j, p.cpus) != sanitize.SaneJob {
			continue
		}
		first[k] = true
		if !isOver {
			delete(p.overKill, k)
		}
	}
}

// overKillWhy is the reason Unrunnable gives a job whose time limit is
// within 2^40 s (sanitize.MaxTime) but whose limit plus OverTimeLimit,
// when Slurm kills it, is not.
const overKillWhy = "time limit plus OverTimeLimit past 2^40 s"

// isOverKill reports whether job j, arriving, is one limits kept out of
// OverTimeLimit (its limit plus OverTimeLimit past 2^40 s), and counts
// it off.
func (p *Policy) isOverKill(j *swf.Job) bool {
	k := [3]int64{j.ID, j.Submit, j.ReqTime}
	if p.overKill[k] == 0 {
		return false
	}
	p.overKill[k]--
	return true
}

// satAdd is a + b for b ≥ 0, at most math.MaxInt64.
func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// exclusive returns jobs with the jobs of an exclusive partition
// (Partition.Exclusive) asking whole nodes, on a machine of nodes (one
// pool has none). It copies only if some job changes. It returns ctx's
// error once ctx is done (looked at every loadEvery jobs).
func (p *Policy) exclusive(ctx context.Context, jobs []swf.Job) ([]swf.Job, error) {
	if len(p.mach.Nodes) == 0 || !slices.ContainsFunc(p.parts, func(pt part) bool { return pt.Exclusive }) {
		return jobs, nil
	}
	copied := false
	for i := range jobs {
		if i%loadEvery == loadEvery-1 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		j := &jobs[i]
		if !p.parts[p.partOf(j)].Exclusive || j.Demand != nil && j.Demand.Exclusive {
			continue
		}
		if !copied {
			jobs, copied = slices.Clone(jobs), true
			j = &jobs[i]
		}
		d := swf.Demand{Exclusive: true}
		if j.Demand != nil {
			d = *j.Demand
			d.Exclusive = true
		}
		j.Demand = &d
	}
	return jobs, nil
}

// partOf is the index of job j's partition (the default one if it names
// none or one that does not exist).
func (p *Policy) partOf(j *swf.Job) int {
	if len(p.cfg.Partitions) == 0 || p.noQueue(j.Queue) {
		return p.defPart
	}
	if i, ok := p.partByName[name(p.cfg.PartitionNames, j.Queue)]; ok {
		return i
	}
	return p.defPart
}

// noQueue tells whether SWF queue q names no partition: −1 ("unknown"),
// and 0 unless PartitionNames or a partition names it "0" (the rule
// queue_0_no_partition). SWF numbers a system's queues from 1 and
// suggests 0 for interactive jobs, and logs write it (lublin_256.swf for
// all its jobs, unnamed): read as a partition named "0", every such job
// of a site with named partitions was cancelled as "unknown partition",
// while a −1 ran in the default one. A header that names queue 0 still
// makes it a partition (SDSC-BLUE's and SDSC-Par's "interactive", 74,872
// and 13,694 jobs, through ReadNames).
func (p *Policy) noQueue(q int64) bool {
	if q != 0 {
		return q < 0
	}
	if _, named := p.cfg.PartitionNames[0]; named {
		return false
	}
	_, part := p.partByName["0"]
	return !part
}

// Defaulted counts, by rule, the jobs given a value their log line did not
// give: "queue_0_no_partition", a job of SWF queue 0, which neither
// PartitionNames nor a partition names, run in the default partition as
// a job without a queue (−1) is: SWF numbers queues from 1 and suggests 0
// for interactive jobs. Counted only with Config.Partitions (without,
// every job is in the one partition).
func (p *Policy) Defaulted() map[string]int { return maps.Clone(p.defaulted) }

// Unrunnable counts, by reason, the jobs no partition can run (an
// unknown partition, a time limit above MaxTime, more nodes than MaxNodes
// or than the partition has): Run cancels them at submission; under a
// plain Schedule they wait for ever. Run also cancels, as "time limit
// plus OverTimeLimit past 2^40 s", a job whose limit is within 2^40 s
// (sanitize.MaxTime) but would be killed past it.
func (p *Policy) Unrunnable() map[string]int { return maps.Clone(p.unrunnable) }

// PlanMisses tells, after Run, whether backfill planned on named nodes
// (ok: Config.NamedNodes on a machine of more than one node, every
// partition over all of its nodes; false before Run, drift and refused
// then 0) and how often that plan parted from the machine: drift counts
// the cycles whose GPUs in use differed from the machine's (the cycle
// planned on the pool of CPUs instead), refused the starts the plan found
// room for that the machine refused (planned a second later). Both stay 0
// while the plan chooses a job's GPUs as the machine does; a run with
// either planned those jobs less exactly than Slurm's backfill, and its
// user should know.
func (p *Policy) PlanMisses() (drift, refused int, ok bool) {
	if p.ns == nil {
		return 0, 0, false
	}
	return p.ns.drift, p.ns.refused, true
}

// runObserver tells the policy of Run's submissions and ends as they
// happen.
type runObserver struct{ p *Policy }

func (o runObserver) OnSubmit(now int64, j *swf.Job) {
	p := o.p
	p.begin(now)
	p.catchUp(now)
	if len(p.overKill) > 0 && p.isOverKill(j) {
		p.unrunnable[overKillWhy]++
		p.sim.Cancel(j.ID)
		return
	}
	var nodes int64
	if j.Demand != nil {
		nodes = j.Demand.Nodes
	}
	r := p.newRec(j, j.Size(), nodes, j.ReqTime-p.cfg.OverTimeLimit)
	if r.held != "" {
		p.unrunnable[r.held]++
		p.sim.Cancel(j.ID)
		return
	}
	p.enqueue(r, now)
}

func (o runObserver) OnStart(int64, *swf.Job, bool) {}

func (o runObserver) OnEnd(now int64, j *swf.Job, _ bool) {
	p := o.p
	p.ended(j.ID, now)
	// While jobs wait, the simulator's pass of now follows the end and
	// arms from what it leaves (while none wait, arm asks nothing): a
	// wake-up asked here, before the pass, is one it would not ask, most
	// often at now+1 for the main scheduler run the pass makes. Its pass
	// can only run a periodic main scheduler run that starts nothing (no
	// job fitted at the last cycle, and none ended since), or a backfill
	// cycle that plans nothing, both on their grids: changes the next
	// change undoes, but for the run's time, which SchedMinInterval reads.
	// So only with one is it asked (as before: those schedules are pinned).
	if p.minInt > 0 {
		p.arm()
	}
}

func (o runObserver) OnReservation(int64, *swf.Job, int64) {}
