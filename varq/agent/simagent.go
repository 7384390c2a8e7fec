package agent

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/batchq/batchq/internal/plugin"
	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/varq"
)

// Config configures the generality simulation of §5.4 (Table 5.6). The
// zero value plus Fraction and a target probability is the thesis's set-up
// as the spec resolves it (Q24): deadlines every 6 h, 30 s trajectories,
// refused jobs submitted as ordinary jobs, missed jobs run anyway.
type Config struct {
	// Fraction of the trace's jobs, drawn independently in submit order,
	// that become VARQ requests.
	Fraction float64
	// Replan is the planner each request uses; ReqProb is the target.
	// The thesis recomputed every 30 s (Q16); OnlyAtSubmit recomputes only
	// at the planned submission time, which is what large simulations can
	// afford.
	Replan varq.ReplanConfig
	// Period separates the reservation start times; each request targets
	// the next multiple of Period after its arrival. 0 means 21600 s.
	Period int64
	// CancelMissed cancels a VARQ job still queued at its start time (it
	// then costs nothing); by default it runs anyway as the trace's work,
	// charged like any job (Q17).
	CancelMissed bool
	// Seed drives the selection of VARQ jobs.
	Seed uint64
	// Unsynchronized gives each request its own start time, its arrival
	// plus a uniform draw in (0, Period]: the same lead times as the
	// thesis's common start times every Period, without the VARQ jobs of
	// one period contending for the same instant. A diagnostic, not the
	// thesis's set-up.
	Unsynchronized bool
	// Crowd (beyond the thesis) makes each request plan as if the agent's
	// other outstanding requests for its start time were part of it: ""
	// or "off" asks about the request's own size (the thesis's method);
	// "queued" adds the nodes of the agent's other requests for the same
	// start time that are submitted but not yet started (started ones
	// hold their nodes and no longer compete for a start); "planned" also
	// adds the accepted requests for that start time not yet submitted
	// whose current plan submits no later than the candidate submission
	// (by then they are queued ahead of it; later ones queue behind it);
	// "accepted" adds every accepted request not yet submitted, whenever
	// it plans to submit (the upper bound on the crowd, kept to measure
	// what "planned"'s ordering argument is worth). Why: requests that
	// must all be running at the same instant compete for the same nodes
	// at the same moment, like one job of their combined size, which a
	// wait-history forecaster cannot see coming.
	Crowd string
}

// defaultPeriod is the spacing of reservation start times in §5.4;
// maxPeriod is varq's bound on instants, beyond which every request
// would be refused.
const (
	defaultPeriod = 21600
	maxPeriod     = 1 << 40
)

// Validate reports a configuration out of range.
func (c Config) Validate() error {
	if !(c.Fraction >= 0 && c.Fraction <= 1) {
		return fmt.Errorf("agent: Fraction %v outside [0, 1]", c.Fraction)
	}
	if c.Period < 0 || c.Period > maxPeriod {
		return fmt.Errorf("agent: Period %d outside 0–2^40 s", c.Period)
	}
	if _, err := parseCrowd(c.Crowd); err != nil {
		return err
	}
	return c.Replan.Validate()
}

// Agent turns trace jobs into VARQ requests on a Machine: it plans each
// one at its arrival, waits (re-planning) until the planned submission,
// submits the padded job, and records whether it was running by the start
// time and what it occupied. A VARQ job that starts by its start time D
// spins until D, then does its work (the trace's run time) and ends; one
// that starts late does its work at once.
//
// The forecaster must be fed by the same machine (QBETS observing the
// simulated queue); the agent does not feed it. Not safe for concurrent
// use: simulations are single-goroutine.
type Agent struct {
	m    varq.Machine
	f    varq.Forecaster
	cfg  Config
	rng  *rand.Rand
	lead *rand.Rand // Unsynchronized start times, apart from the selection
	outs []Outcome
	live map[int64]*simRequest
	crwd *crowd // nil under crowdOff: its bookkeeping methods do nothing
	st   Stats
	err  error
}

// Stats counts what the agent's Replanners decided on the way, beyond
// the outcomes.
type Stats struct {
	// Kept is the number of decisions on accepted requests that found no
	// submission with any chance and kept the plan, judging the forecaster
	// silent (QBETS's "machine may be down", §2.5); KeptRequests the
	// requests submitted by a plan so kept.
	Kept, KeptRequests int
	// CrowdZeros is the number of accepted requests dropped, under a crowd
	// mode, because the crowd-aware question had no chance at any
	// submission while the request's own size still had one: the zeros
	// were the crowd's, not silence (a plan is kept through silence only
	// when the request's own size has no chance either).
	CrowdZeros int
}

type simRequest struct {
	out     int // index into outs
	req     varq.Request
	work    int64 // the trace job's run time, capped at its walltime
	rp      *varq.Replanner
	f       varq.Forecaster // what rp plans with
	planned int64           // the submission time of rp's current plan
	id      int64
	started bool
	// In the crowd ledger (crowd.go): whether s is accepted and not yet
	// submitted, and the planned submission time it is filed under.
	pending bool
	filed   int64
}

// New checks the configuration.
func New(m varq.Machine, f varq.Forecaster, cfg Config) (*Agent, error) {
	if plugin.Missing(m) || plugin.Missing(f) {
		return nil, errors.New("agent: Agent needs a Machine and a Forecaster")
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Period == 0 {
		cfg.Period = defaultPeriod
	}
	a := &Agent{m: m, f: f, cfg: cfg, rng: rand.New(rand.NewPCG(cfg.Seed, 0x5641525121)),
		lead: rand.New(rand.NewPCG(cfg.Seed, 0x4c454144)), live: map[int64]*simRequest{}}
	if mode, _ := parseCrowd(cfg.Crowd); mode != crowdOff {
		a.crwd = newCrowd(mode)
	}
	return a, nil
}

// Select draws, for each job in submit order, whether it becomes a VARQ
// request (probability Fraction). Call it once per job, in order, before
// the simulation: the same seed gives the same selection.
func (a *Agent) Select() bool {
	return a.rng.Float64() < a.cfg.Fraction
}

// NextStart is the reservation start time a request arriving at t
// targets: the next multiple of Period strictly after t.
func (a *Agent) NextStart(t int64) int64 {
	p := a.cfg.Period
	d := (t/p + 1) * p
	if t < 0 && t%p != 0 {
		d -= p
	}
	return d
}

// Arrive hands job j to VARQ at the machine's current time (its submit
// time): the request is Size() processors for the job's requested time
// (its run time when it has no estimate), starting at NextStart(now). A
// refused request is submitted at once as an ordinary job.
func (a *Agent) Arrive(j swf.Job) {
	now := a.m.Now()
	w := j.ReqTime
	if w <= 0 {
		w = j.RunTime
	}
	start := a.NextStart(now)
	if a.cfg.Unsynchronized {
		start = now + 1 + a.lead.Int64N(a.cfg.Period)
	}
	r := varq.Request{Nodes: int(j.Size()), Walltime: max(w, 1), Start: start}
	s := &simRequest{out: len(a.outs), req: r, work: min(max(j.RunTime, 0), r.Walltime)}
	a.outs = append(a.outs, Outcome{Plan: varq.Plan{Request: r}, Required: nodeSeconds(r.Nodes, s.work)})
	var f varq.Forecaster = a.f
	if a.crwd != nil {
		f = &crowdForecaster{f: a.f, c: a.crwd, self: s}
	}
	rcfg := a.cfg.Replan
	if a.crwd != nil {
		rcfg.Own = a.f // silence is QBETS's, at the request's own size
	}
	rp, err := varq.NewReplanner(f, r, rcfg)
	if err != nil {
		a.fail(err)
		return
	}
	s.rp, s.f = rp, f
	a.decide(s)
}

func (a *Agent) decide(s *simRequest) {
	now := a.m.Now()
	d, err := s.rp.Decide(now)
	if err != nil {
		a.fail(err)
		return
	}
	s.planned = d.Plan.Submit
	a.count(s, d, now)
	o := &a.outs[s.out]
	switch d.Action {
	case varq.Wait:
		if !o.Accepted {
			o.Accepted, o.Plan = true, d.Plan
			a.crwd.accepted(s)
		} else {
			a.crwd.replanned(s)
		}
		a.m.At(d.Next, func() { a.decide(s) })
	case varq.Submit:
		if !o.Accepted {
			o.Accepted, o.Plan = true, d.Plan
		} else { // accepted at an earlier decision: no longer pending
			a.crwd.unpend(s)
		}
		o.Submitted, o.Submit = d.Plan, now
		id, err := a.m.Submit(s.req.Nodes, d.Plan.Walltime, d.Plan.Walltime)
		if err != nil {
			a.fail(err)
			return
		}
		s.id, o.Job = id, id
		a.live[id] = s
		a.crwd.queue(s)
		if a.cfg.CancelMissed {
			a.m.At(s.req.Start+1, func() { a.cancelIfQueued(s) })
		}
	case varq.Refuse:
		// §5.4 [R]: a refused job is submitted as an ordinary job.
		if _, err := a.m.Submit(s.req.Nodes, s.req.Walltime, s.work); err != nil {
			a.fail(err)
		}
	case varq.Drop:
		// Accepted, then given up before submission: a failure that
		// occupied nothing. The trace's work is still done, as an
		// ordinary job outside the VARQ accounting.
		o.Submitted = d.Plan
		a.crwd.unpend(s)
		if _, err := a.m.Submit(s.req.Nodes, s.req.Walltime, s.work); err != nil {
			a.fail(err)
		}
	}
}

// count adds decision d on s to the agent's Stats.
func (a *Agent) count(s *simRequest, d varq.Decision, now int64) {
	if d.Kept {
		a.st.Kept++
		if d.Action == varq.Submit {
			a.st.KeptRequests++
		}
	}
	if a.crwd != nil && d.Action == varq.Drop && s.pending &&
		!silentOn(a.f, s.req, now, a.cfg.Replan.Step) && silentOn(s.f, s.req, now, a.cfg.Replan.Step) {
		a.st.CrowdZeros++
	}
}

func (a *Agent) cancelIfQueued(s *simRequest) {
	if s.started {
		return
	}
	delete(a.live, s.id)
	a.crwd.dequeue(s)
	if err := a.m.Cancel(s.id); err != nil {
		a.fail(err)
	}
}

// Started tells the agent that job id started at t; jobs that are not
// VARQ jobs are ignored.
func (a *Agent) Started(id int64, t int64) {
	s, ok := a.live[id]
	if !ok {
		return
	}
	delete(a.live, id)
	s.started = true
	a.crwd.dequeue(s)
	o := &a.outs[s.out]
	o.Ran, o.Started = true, t
	end := t + s.work
	if t <= s.req.Start {
		o.Success = true
		end = s.req.Start + s.work
	}
	o.Used = nodeSeconds(s.req.Nodes, end-t)
	if end < t+o.Submitted.Walltime {
		a.m.At(end, func() {
			if err := a.m.Cancel(s.id); err != nil {
				a.fail(err)
			}
		})
	}
}

func (a *Agent) fail(err error) {
	if a.err == nil {
		a.err = err
	}
}

// Err returns the first error met while the simulation ran.
func (a *Agent) Err() error { return a.err }

// Stats returns the counts of the decisions so far.
func (a *Agent) Stats() Stats { return a.st }

// Outcomes returns one record per VARQ request, in arrival order.
func (a *Agent) Outcomes() []Outcome { return a.outs }

// silentOn reports whether f gives every submission of r on the grid from
// now to the start time probability 0 (ok = false counts as 0), and there
// is such a submission; as the Replanner judges silence.
func silentOn(f varq.Forecaster, r varq.Request, now, step int64) bool {
	if step == 0 {
		step = varq.DefaultStep
	}
	if now >= r.Start {
		return false
	}
	for s := now; s < r.Start; s += step {
		within := r.Start - s
		if p, ok := f.ProbWithin(r.Nodes, r.Walltime+within, within); ok && p != 0 {
			return false
		}
	}
	return true
}
