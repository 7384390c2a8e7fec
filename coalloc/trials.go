package coalloc

import (
	"errors"
	"fmt"

	"github.com/batchq/batchq/varq"
)

// TrialConfig is one trial of Table 6.2: co-allocations of Count
// reservations of Nodes × Walltime starting Lead seconds after the
// request, with joint target PAll.
type TrialConfig struct {
	Count    int // reservations per co-allocation; 0 means 2 (Figure 6.1)
	Nodes    int
	Walltime int64
	Lead     int64 // D in the thesis's (N, W, D)
	PAll     float64
	// Retry is the wait after a plan that is not possible; 0 means 600 s
	// (thesis L1052).
	Retry int64
	Plan  Config
}

// Validate reports a trial out of range.
func (c TrialConfig) Validate() error {
	switch {
	case c.Count < 0 || c.Nodes <= 0 || c.Walltime <= 0 || c.Lead <= 0 || c.Retry < 0:
		return fmt.Errorf("coalloc: bad trial %+v", c)
	case !(c.PAll > 0 && c.PAll <= 1):
		return fmt.Errorf("coalloc: P_all %v outside (0, 1]", c.PAll)
	}
	return c.Plan.Validate()
}

// Trials runs the §5.5 protocol on an Executor: request a co-allocation;
// if no plan is possible, retry after Retry; otherwise execute it and make
// the next request Lead + Walltime later, so one co-allocation is active
// at a time. The first site's machine keeps the protocol's time; the
// driver keeps the sites' clocks together.
type Trials struct {
	e        *Executor
	cfg      TrialConfig
	until    int64
	execs    []*Execution
	attempts int
}

// StartTrials schedules the first request at from; no request is made at
// or after until.
func (e *Executor) StartTrials(cfg TrialConfig, from, until int64) (*Trials, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Count == 0 {
		cfg.Count = 2
	}
	if cfg.Retry == 0 {
		cfg.Retry = 600
	}
	if from >= until {
		return nil, errors.New("coalloc: empty trial period")
	}
	tr := &Trials{e: e, cfg: cfg, until: until}
	m := e.sites[0].Machine
	m.At(max(from, m.Now()), tr.request)
	return tr, nil
}

func (tr *Trials) request() {
	m := tr.e.sites[0].Machine
	now := m.Now()
	if now >= tr.until {
		return
	}
	tr.attempts++
	r := varq.Request{Nodes: tr.cfg.Nodes, Walltime: tr.cfg.Walltime, Start: now + tr.cfg.Lead}
	reqs := make([]varq.Request, tr.cfg.Count)
	for i := range reqs {
		reqs[i] = r
	}
	p, err := NewPlan(reqs, tr.e.Resources(), tr.cfg.PAll, now, tr.cfg.Plan)
	if err != nil {
		tr.e.fail(err)
		return
	}
	if !p.OK {
		m.At(now+tr.cfg.Retry, tr.request)
		return
	}
	x, err := tr.e.Execute(p, reqs)
	if err != nil {
		tr.e.fail(err)
		return
	}
	tr.execs = append(tr.execs, x)
	m.At(now+tr.cfg.Lead+tr.cfg.Walltime, tr.request)
}

// Attempts is the number of co-allocation requests made, possible or not.
func (tr *Trials) Attempts() int { return tr.attempts }

// Results returns the executed co-allocations' outcomes, in order. Call it
// once the simulation has passed the last one's start time.
func (tr *Trials) Results() []Result {
	rs := make([]Result, len(tr.execs))
	for i, x := range tr.execs {
		rs[i] = x.Result()
	}
	return rs
}

// TrialSummary aggregates a trial's results: the columns of Table 6.2 plus
// the requests per reservation and the over-allocation the thesis promised
// but did not report.
type TrialSummary struct {
	Attempts, Executed int
	PExpected          float64 // mean over executed co-allocations
	PAchieved          float64 // fraction of executed co-allocations that succeeded
	RequestsPerRes     float64 // VARQ requests per reservation, planned and re-boosted
	ReboostsPerRes     float64 // of which added while executing (Config.Reboost)
	DroppedPerRes      float64 // requests cancelled for a live probability of 0
	SubmittedPerRes    float64 // requests actually submitted
	Required, Used     int64   // node-seconds
}

// OverAllocation is Used/Required.
func (s TrialSummary) OverAllocation() float64 { return overAllocation(s.Used, s.Required) }

// Summary aggregates the trial.
func (tr *Trials) Summary() TrialSummary {
	s := TrialSummary{Attempts: tr.attempts}
	res := 0
	for _, r := range tr.Results() {
		s.Executed++
		s.PExpected += r.Plan.PExpected
		if r.Success {
			s.PAchieved++
		}
		s.RequestsPerRes += float64(r.Planned + r.Reboosts)
		s.ReboostsPerRes += float64(r.Reboosts)
		s.DroppedPerRes += float64(r.Dropped)
		s.SubmittedPerRes += float64(r.Submitted)
		res += len(r.Satisfied)
		s.Required += r.Required
		s.Used += r.Used
	}
	if s.Executed > 0 {
		s.PExpected /= float64(s.Executed)
		s.PAchieved /= float64(s.Executed)
		s.RequestsPerRes /= float64(res)
		s.ReboostsPerRes /= float64(res)
		s.DroppedPerRes /= float64(res)
		s.SubmittedPerRes /= float64(res)
	}
	return s
}
