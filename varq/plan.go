package varq

import "fmt"

// Plan is VARQ's answer for one Request: submit a job of Request.Nodes
// processors asking for Walltime seconds at the absolute time Submit; it
// will be running by Request.Start with predicted probability Prob.
//
// A Plan with Possible false is NOT_POSSIBLE: no submission time meets the
// target. It is a normal answer (the analogue of a denied hard
// reservation), not an error; its other fields are zero apart from
// Request. The zero Plan is NOT_POSSIBLE.
type Plan struct {
	Request
	Possible bool
	Submit   int64   // absolute submission time, < Request.Start
	Walltime int64   // padded walltime W + (D − Submit)
	Prob     float64 // predicted probability of running by Request.Start
}

// String is "NOT_POSSIBLE" or a one-line summary.
func (p Plan) String() string {
	if !p.Possible {
		return "NOT_POSSIBLE"
	}
	_, extra := p.Cost()
	return fmt.Sprintf("submit at %d: %d nodes × %d s, p=%.2f, worst-case extra %d node-s",
		p.Submit, p.Nodes, p.Walltime, p.Prob, extra)
}

// PlanLatest is the default "min-overhead" mode of §3: the latest point of
// traj whose probability is at least reqProb, which minimises the
// worst-case overhead among the plans meeting the target. It returns
// NOT_POSSIBLE when no point qualifies, and so for a reqProb outside
// (0, 1] (NaN included), which Latest and NewReplanner report as errors;
// points with probabilities outside [0, 1] never qualify (see
// ProbabilityTrajectory.Latest).
func PlanLatest(traj ProbabilityTrajectory, r Request, reqProb float64) Plan {
	if pt, ok := traj.Latest(reqProb); ok {
		return planAt(r, pt)
	}
	return Plan{Request: r}
}

// PlanMax is the "max-probability" mode of §3: the point of traj with the
// highest probability, the latest one on ties (it costs the least). A
// trajectory that is empty or all zero gives NOT_POSSIBLE: no submission
// has any chance.
func PlanMax(traj ProbabilityTrajectory, r Request) Plan {
	if pt, ok := traj.Max(); ok {
		return planAt(r, pt)
	}
	return Plan{Request: r}
}

func planAt(r Request, pt Point) Plan {
	return Plan{Request: r, Possible: true, Submit: pt.Submit, Walltime: r.Padded(pt.Submit), Prob: pt.Prob}
}
