package main

import (
	"errors"
	"fmt"

	"github.com/batchq/batchq/coalloc"
	"github.com/batchq/batchq/varq"
)

// trialConfig is one trial of Table 6.2: co-allocations of count
// reservations of nodes × walltime starting lead seconds after the
// request, with joint target pAll.
type trialConfig struct {
	count    int // reservations per co-allocation; 0 means 2 (Figure 6.1)
	nodes    int
	walltime int64
	lead     int64 // D in the thesis's (N, W, D)
	pAll     float64
	// retry is the wait after a plan that is not possible; 0 means 600 s
	// (thesis Ch. 6, spec §4).
	retry int64
	plan  coalloc.Config
}

func (c trialConfig) validate() error {
	switch {
	case c.count < 0 || c.nodes <= 0 || c.walltime <= 0 || c.lead <= 0 || c.retry < 0:
		return fmt.Errorf("bad trial %+v", c)
	case !(c.pAll > 0 && c.pAll <= 1):
		return fmt.Errorf("trial: P_all %v outside (0, 1]", c.pAll)
	}
	return c.plan.Validate()
}

// trials runs the thesis's evaluation protocol (spec §5.5, thesis Ch. 6)
// on an Executor: request a co-allocation; if no plan is possible, retry
// after retry seconds; otherwise execute it and make the next request
// lead + walltime later, so one co-allocation is active at a time. clock,
// the first site's machine, keeps the protocol's time; the driver keeps
// the sites' clocks together and checks err after each step.
type trials struct {
	x        *coalloc.Executor
	clock    varq.Machine
	cfg      trialConfig
	until    int64
	execs    []*coalloc.Execution
	attempts int
	err      error // the first planning or execution error
}

// startTrials schedules the first request at from; no request is made at
// or after until.
func startTrials(x *coalloc.Executor, clock varq.Machine, cfg trialConfig, from, until int64) (*trials, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.count == 0 {
		cfg.count = 2
	}
	if cfg.retry == 0 {
		cfg.retry = 600
	}
	if from >= until {
		return nil, errors.New("empty trial period")
	}
	tr := &trials{x: x, clock: clock, cfg: cfg, until: until}
	clock.At(max(from, clock.Now()), tr.request)
	return tr, nil
}

func (tr *trials) request() {
	now := tr.clock.Now()
	if now >= tr.until || tr.err != nil {
		return
	}
	tr.attempts++
	r := varq.Request{Nodes: tr.cfg.nodes, Walltime: tr.cfg.walltime, Start: now + tr.cfg.lead}
	reqs := make([]varq.Request, tr.cfg.count)
	for i := range reqs {
		reqs[i] = r
	}
	p, err := coalloc.NewPlan(reqs, tr.x.Resources(), tr.cfg.pAll, now, tr.cfg.plan)
	if err != nil {
		tr.err = err
		return
	}
	if !p.OK {
		tr.clock.At(now+tr.cfg.retry, tr.request)
		return
	}
	x, err := tr.x.Execute(p, reqs)
	if err != nil {
		tr.err = err
		return
	}
	tr.execs = append(tr.execs, x)
	tr.clock.At(now+tr.cfg.lead+tr.cfg.walltime, tr.request)
}

// results returns the executed co-allocations' outcomes, in order. Call it
// once the simulation has passed the last one's start time.
func (tr *trials) results() []coalloc.Result {
	rs := make([]coalloc.Result, len(tr.execs))
	for i, x := range tr.execs {
		rs[i] = x.Result()
	}
	return rs
}

// trialSummary aggregates a trial's results: the columns of Table 6.2 plus
// the requests per reservation and the over-allocation the thesis promised
// but did not report.
type trialSummary struct {
	attempts, executed int
	pExpected          float64 // mean over executed co-allocations
	pAchieved          float64 // fraction of executed co-allocations that succeeded
	requestsPerRes     float64 // VARQ requests per reservation, planned and re-boosted
	reboostsPerRes     float64 // of which added while executing (Config.Reboost)
	droppedPerRes      float64 // requests cancelled for a live probability of 0
	submittedPerRes    float64 // requests actually submitted
	required, used     int64   // node-seconds
}

// overAllocation is used/required, 0 when nothing was required.
func (s trialSummary) overAllocation() float64 {
	return coalloc.Result{Used: s.used, Required: s.required}.OverAllocation()
}

// summary aggregates the trial.
func (tr *trials) summary() trialSummary {
	s := trialSummary{attempts: tr.attempts}
	res := 0
	for _, r := range tr.results() {
		s.executed++
		s.pExpected += r.Plan.PExpected
		if r.Success {
			s.pAchieved++
		}
		s.requestsPerRes += float64(r.Planned + r.Reboosts)
		s.reboostsPerRes += float64(r.Reboosts)
		s.droppedPerRes += float64(r.Dropped)
		s.submittedPerRes += float64(r.Submitted)
		res += len(r.Satisfied)
		s.required += r.Required
		s.used += r.Used
	}
	if s.executed > 0 {
		n, nr := float64(s.executed), float64(res)
		s.pExpected /= n
		s.pAchieved /= n
		s.requestsPerRes /= nr
		s.reboostsPerRes /= nr
		s.droppedPerRes /= nr
		s.submittedPerRes /= nr
	}
	return s
}
