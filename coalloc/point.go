package coalloc

import (
	"errors"
	"slices"

	"github.com/batchq/batchq/varq"
)

// pointRule chooses the point of a request's probability trajectory that
// CO-VARQ plans it at, and so the p_{i,r} it believes (see
// Config.LatestMeeting).
type pointRule int

const (
	atMax         pointRule = iota // the trajectory maximum, the latest argmax (Q18)
	latestMeeting                  // the latest point meeting P_indep, else atMax
)

// String names the rule, as benchmarks and reports do.
func (p pointRule) String() string {
	if p == latestMeeting {
		return "latest"
	}
	return "max"
}

// pointPlan plans request r on forecaster f at now (trajectory step
// step) by rule, for the per-reservation target (used by latestMeeting
// only): PlanLatest, or PlanMax as its fallback or as atMax, over
// Trajectory(f, r, now, step), without asking f about more of the
// trajectory than the rule needs. A trajectory that is all zero gives
// NOT_POSSIBLE. rec is scratch space, reused between calls.
//
// varq.Latest asks about the latest submissions first and stops at the
// first meeting its target, which is then the rule's point: for
// latestMeeting by definition, and for atMax with the target 1, since no
// probability exceeds 1, the latest point at 1 is the latest argmax (QBETS
// answers at most 0.99, so with it atMax still asks every point). Only
// when no point meets the target does the rule need the maximum of the
// whole trajectory, and then Latest has asked about every point: f is
// wrapped to record its answers, so the maximum is read off them and no
// point is asked twice. The plan is the one the full trajectory gives
// (TestPointPlanIsFullTrajectory). Unlike the full trajectory, an answer
// outside [0, 1] at a point the rule does not reach goes unreported.
func pointPlan(rec *recorder, f varq.Forecaster, r varq.Request, now, step int64, target float64, rule pointRule) (varq.Plan, error) {
	if f == nil {
		return varq.Plan{}, errors.New("coalloc: nil Forecaster")
	}
	if rule == atMax {
		target = 1
	}
	// Room for the whole trajectory at once, as varq.Trajectory makes,
	// rather than growing it point by point; the arguments are checked
	// against varq's limits (at most 2^20 points) first.
	n, err := r.TrajectoryLen(now, step)
	if err != nil {
		return varq.Plan{}, err
	}
	rec.f, rec.start, rec.traj = f, r.Start, slices.Grow(rec.traj[:0], n)
	p, err := varq.Latest(rec, r, now, step, target)
	if err != nil || p.Possible {
		return p, err
	}
	slices.Reverse(rec.traj) // asked latest first
	return varq.ProbabilityTrajectory(rec.traj).PlanMax(r), nil
}

// recorder is f as a forecaster that keeps the trajectory points it was
// asked about: varq asks about submitting at s as a job that must start
// within start − s.
type recorder struct {
	f     varq.Forecaster
	start int64
	traj  []varq.Point
}

func (c *recorder) ProbWithin(nodes int, walltime, within int64) (float64, bool) {
	p, ok := c.f.ProbWithin(nodes, walltime, within)
	pt := varq.Point{Submit: c.start - within, Prob: p}
	if !ok {
		pt.Prob = 0 // as varq reads it
	}
	c.traj = append(c.traj, pt)
	return p, ok
}
