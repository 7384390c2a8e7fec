package coalloc

import (
	"fmt"

	"github.com/batchq/batchq/varq"
)

// PointRule chooses the point of a request's probability trajectory that
// CO-VARQ plans it at, and so the p_{i,r} it believes.
type PointRule int

const (
	// AtMax plans at the trajectory maximum, the latest argmax: the best
	// VARQ can offer (A18, the thesis's procedure). The maximum of
	// 480–1440 noisy forecasts is biased upward, and boosting then keeps
	// the sites with the highest maxima: the promise is a winner's curse.
	AtMax PointRule = iota
	// LatestMeeting plans at the latest point whose probability meets the
	// per-reservation target P_indep, VARQ's min-overhead rule (§3), and
	// falls back to AtMax on a site where no point meets it. It does not
	// pick the highest of many estimates, so it selects less on noise,
	// and it submits later, so it spins less.
	LatestMeeting
)

func (p PointRule) String() string {
	switch p {
	case AtMax:
		return "max"
	case LatestMeeting:
		return "latest"
	}
	return fmt.Sprintf("PointRule(%d)", int(p))
}

// pointPlan reads the plan off trajectory traj of request r by rule, for
// the per-reservation target target (used by LatestMeeting only). A
// trajectory that is all zero gives NOT_POSSIBLE.
func pointPlan(traj []varq.Point, r varq.Request, target float64, rule PointRule) varq.Plan {
	if rule == LatestMeeting {
		if p := varq.PlanLatest(traj, r, target); p.Possible {
			return p
		}
	}
	return varq.PlanMax(traj, r)
}
