package varq

import (
	"errors"
	"fmt"
)

// ReplanConfig configures a Replanner. The zero value plus a ReqProb is the
// thesis's behaviour: min-overhead plans on 30 s trajectories, recomputed
// every 30 s while waiting, falling back to the most probable submission
// if the target becomes unreachable.
type ReplanConfig struct {
	// MaxProbability plans at the most probable submission (PlanMax)
	// instead of the latest one meeting ReqProb (PlanLatest, the thesis's
	// min-overhead default).
	MaxProbability bool
	ReqProb        float64 // target probability, in (0, 1]; ignored by MaxProbability
	Step           int64   // trajectory step; 0 means DefaultStep
	// Every is how often the plan is recomputed while waiting; 0 means
	// every Step. OnlyAtSubmit recomputes it only when the planned
	// submission time arrives (cheap, for large simulations).
	Every        int64
	OnlyAtSubmit bool
	// Abort gives an accepted request up (Drop) when it can no longer meet
	// its target (Q16); by default the Replanner falls back to the most
	// probable submission of the new trajectory (PlanMax), and aborts only
	// if none has any chance.
	Abort bool
	// Own, if set, judges the forecaster's silence (see Replanner) by
	// asking about the request alone, for a planning forecaster that
	// wraps it and asks about something larger (a crowd of requests). A
	// zero the wrapper makes is then an answer, not silence. Nil means the
	// planning forecaster judges.
	Own Forecaster
}

// Validate reports a configuration out of range.
func (c ReplanConfig) Validate() error {
	if !c.MaxProbability {
		if err := checkProb("ReqProb", c.ReqProb); err != nil {
			return err
		}
	}
	if c.Step < 0 || c.Every < 0 {
		return errors.New("varq: negative Step or Every")
	}
	if c.Step > maxTime || c.Every > maxTime {
		return errors.New("varq: Step or Every above 2^40 s")
	}
	if c.Own != nil && missing(c.Own) {
		return errors.New("varq: ReplanConfig.Own is a nil func or pointer")
	}
	return nil
}

// Action is what a Replanner tells its driver to do now.
type Action int

const (
	// Wait: call Decide again at Decision.Next.
	Wait Action = iota
	// Submit: submit Decision.Plan now (its Walltime is padded for now).
	Submit
	// Refuse: the first plan was NOT_POSSIBLE; the request is not accepted.
	Refuse
	// Drop: an accepted request became infeasible (ReplanConfig.Abort, or no
	// submission has any chance while the forecaster still answers for
	// the request's own size) or its start time passed; it fails.
	Drop
)

func (a Action) String() string {
	switch a {
	case Wait:
		return "wait"
	case Submit:
		return "submit"
	case Refuse:
		return "refuse"
	case Drop:
		return "drop"
	}
	return fmt.Sprintf("Action(%d)", int(a))
}

// Decision is a Replanner's answer at one instant.
type Decision struct {
	Action Action
	Plan   Plan  // the current plan (NOT_POSSIBLE for Refuse/Drop)
	Next   int64 // for Wait: when to call Decide again
	// Kept: no submission had any chance and the forecaster was judged
	// silent, so the Wait or Submit is of the plan accepted earlier (see
	// Replanner).
	Kept bool
}

// Replanner is the re-planning agent of Q16 for one request: while waiting
// to submit, it recomputes the trajectory as new waits become visible to
// its Forecaster and moves the planned submission time. Drive it with
// Decide(now) from a clock (real or simulated), at the times it asks for.
// It never submits at or after the request's start time.
//
// The forecaster is silent when it gives every submission from now to the
// start time probability 0 (ok = false counts as 0). QBETS is silent while
// its availability inference thinks the machine may be down (§2.5: "no
// prediction"). For a request accepted earlier that is the absence of a
// forecast, not evidence against the plan: the Replanner keeps its plan
// through such a spell (Decision.Kept), submitting when its time comes,
// instead of dropping the reservation. A request that meets a silent
// forecaster at its arrival is refused: there is nothing to promise.
// Silence is judged at the request's own size (ReplanConfig.Own).
//
// Not safe for concurrent use.
type Replanner struct {
	f        Forecaster
	own      Forecaster // ReplanConfig.Own
	req      Request
	cfg      ReplanConfig
	accepted bool
	done     bool
	plan     Plan
	traj     ProbabilityTrajectory
}

// NewReplanner checks the request and the configuration.
func NewReplanner(f Forecaster, r Request, cfg ReplanConfig) (*Replanner, error) {
	if missing(f) {
		return nil, errors.New("varq: nil Forecaster")
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Replanner{f: f, own: cfg.Own, req: r, cfg: cfg}, nil
}

// Plan returns the latest plan computed.
func (rp *Replanner) Plan() Plan { return rp.plan }

// Decide recomputes the plan at now and says what to do. After a Submit,
// Refuse or Drop the replanner is finished and Decide returns an error.
func (rp *Replanner) Decide(now int64) (Decision, error) {
	if rp.done {
		return Decision{}, errors.New("varq: Decide called on a finished Replanner")
	}
	p, err := rp.compute(now)
	if err != nil {
		return Decision{}, err
	}
	kept := !p.Possible && rp.accepted && rp.silent(now)
	if kept {
		p = rp.plan
		if p.Submit < now { // the planned time passed while silent: submit now
			p.Submit, p.Walltime = now, rp.req.Padded(now)
		}
	}
	rp.plan = p
	switch {
	case !p.Possible && !rp.accepted:
		rp.done = true
		return Decision{Action: Refuse, Plan: p}, nil
	case !p.Possible:
		rp.done = true
		return Decision{Action: Drop, Plan: p}, nil
	}
	rp.accepted = true
	if p.Submit <= now {
		rp.done = true
		return Decision{Action: Submit, Plan: p, Kept: kept}, nil
	}
	next := p.Submit
	if !rp.cfg.OnlyAtSubmit {
		every := rp.cfg.Every
		if every == 0 {
			every = rp.cfg.Step
		}
		if every == 0 {
			every = DefaultStep
		}
		next = min(next, now+every)
	}
	return Decision{Action: Wait, Plan: p, Next: next, Kept: kept}, nil
}

// silent reports whether the forecaster gives every submission from now
// to the start time probability 0 (and there is such a submission). It
// asks own, the forecaster about the request alone, when there is one;
// otherwise it reuses the trajectory compute left for now, if any.
//
// A silent forecaster answers 0 for every submission from now to the
// start time. QBETS does that while its availability inference thinks the
// machine may be down (§2.5: "no prediction"), and for a request accepted
// earlier that is the absence of a forecast, not evidence against the
// plan: a Replanner keeps its current plan through such a spell (submitting
// when its time comes) instead of dropping the reservation. A request that
// meets a silent forecaster at its arrival is refused: there is nothing to
// promise.
//
// Silence is judged on the request's own size: QBETS falls silent for
// every size at once. A crowd-aware question (own nodes plus the crowd's)
// can be all zero while the forecaster answers for the request alone, for
// instance for a sum no job of the history had; that is a forecast that no
// submission has any chance, and the request is dropped (Q16) rather than
// kept on a stale plan.
func (rp *Replanner) silent(now int64) bool {
	if rp.own != nil {
		return silentOn(rp.own, rp.req, now, rp.cfg.Step)
	}
	if len(rp.traj) > 0 {
		return !rp.traj.PlanMax(rp.req).Possible
	}
	return silentOn(rp.f, rp.req, now, rp.cfg.Step)
}

// silentOn reports whether f gives every submission of r on the grid from
// now to the start time probability 0, and there is such a submission. It
// stops at the first answer above 0, so a forecaster that answers costs
// one question. An error is not silence.
func silentOn(f Forecaster, r Request, now, step int64) bool {
	if step == 0 {
		step = DefaultStep
	}
	if now >= r.Start {
		return false
	}
	for s := now; s < r.Start; s += step {
		if p, err := forecast(f, r, s); err != nil || p > 0 {
			return false
		}
	}
	return true
}

// compute is the plan at now in the configured mode, with the fallback to
// the argmax for an accepted request that lost its target.
func (rp *Replanner) compute(now int64) (Plan, error) {
	rp.traj = rp.traj[:0] // filled below only when the argmax is needed
	if !rp.cfg.MaxProbability {
		p, err := Latest(rp.f, rp.req, now, rp.cfg.Step, rp.cfg.ReqProb)
		if err != nil || p.Possible || !rp.accepted || rp.cfg.Abort {
			return p, err
		}
	}
	var err error
	rp.traj, err = appendTrajectory(rp.traj, rp.f, rp.req, now, rp.cfg.Step)
	if err != nil {
		return Plan{}, err
	}
	return rp.traj.PlanMax(rp.req), nil
}
