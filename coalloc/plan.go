package coalloc

import (
	"errors"
	"fmt"

	"github.com/batchq/batchq/varq"
)

// Resource is a machine/queue pair CO-VARQ may submit to, with the
// forecaster (QBETS) that monitors it.
type Resource struct {
	Name       string
	Forecaster varq.Forecaster
}

// Assignment is one VARQ request of a plan: reservation Reservation on
// resource Resource, submitted as VARQ planned it.
type Assignment struct {
	Reservation, Resource int
	VARQ                  varq.Plan
}

// Plan is a CO-VARQ plan: the outcome of greedy boosting, and for each
// reservation the VARQ requests to launch, Launch[i] aligned with Sets[i].
// Config is the configuration it was made with; the Executor re-boosts by
// it.
type Plan struct {
	PAll, PIndep float64
	// Sets[i] lists the resources drawn for reservation i, in draw order.
	Sets [][]int
	// PRes[i] = 1 − Π_{r ∈ Sets[i]} (1 − p_{i,r}).
	PRes []float64
	// PExpected = Π PRes[i], the plan's expected joint probability.
	PExpected float64
	// OK is false when the pool ran out before the stop rule was met: the
	// co-allocation is not possible now.
	OK     bool
	Launch [][]Assignment
	Config Config
}

// probTable fills the table of §4 step 2: for each reservation and
// resource, the VARQ plan that cfg's point rule reads off its trajectory as seen
// at now (by default the trajectory maximum, latest argmax; Q18), and its
// probability. target is the per-reservation target latestMeeting plans
// for (P_indep). A resource whose trajectory is all zero gets p = 0 and a
// NOT_POSSIBLE plan. A resource with a nil Forecaster is an error naming
// it.
func probTable(reqs []varq.Request, res []Resource, target float64, now int64, cfg Config) (table, [][]varq.Plan, error) {
	if len(reqs) == 0 || len(res) == 0 {
		return nil, nil, errors.New("coalloc: need at least one reservation and one resource")
	}
	if err := cfg.Validate(); err != nil {
		return nil, nil, err
	}
	for r, rs := range res {
		if rs.Forecaster == nil {
			return nil, nil, fmt.Errorf("coalloc: resource %d (%s) has a nil Forecaster", r, rs.Name)
		}
	}
	t := make(table, len(reqs))
	plans := make([][]varq.Plan, len(reqs))
	var rec recorder
	for i, q := range reqs {
		if q.Start <= now {
			return nil, nil, fmt.Errorf("coalloc: reservation %d starts at %d, not after now (%d)", i, q.Start, now)
		}
		t[i] = make([]float64, len(res))
		plans[i] = make([]varq.Plan, len(res))
		for r, rs := range res {
			p, err := pointPlan(&rec, rs.Forecaster, q, now, cfg.Step, target, cfg.point())
			if err != nil {
				return nil, nil, fmt.Errorf("coalloc: reservation %d on %s: %w", i, rs.Name, err)
			}
			plans[i][r], t[i][r] = p, p.Prob
		}
	}
	return t, plans, nil
}

// NewPlan plans a co-allocation of reqs over res at time now with joint target
// pAll: probTable, then boost. A plan with OK false is CO-VARQ's "not
// possible now"; errors are bad input.
func NewPlan(reqs []varq.Request, res []Resource, pAll float64, now int64, cfg Config) (Plan, error) {
	if !(pAll > 0 && pAll <= 1) {
		return Plan{}, fmt.Errorf("coalloc: P_all %v outside (0, 1]", pAll)
	}
	t, plans, err := probTable(reqs, res, pIndep(pAll, len(reqs)), now, cfg)
	if err != nil {
		return Plan{}, err
	}
	b, err := boost(t, pAll, cfg)
	if err != nil {
		return Plan{}, err
	}
	p := b
	p.Launch, p.Config = make([][]Assignment, len(reqs)), cfg
	for i, set := range b.Sets {
		for _, r := range set {
			p.Launch[i] = append(p.Launch[i], Assignment{Reservation: i, Resource: r, VARQ: plans[i][r]})
		}
	}
	return p, nil
}
