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

// String is "NOT_POSSIBLE" or a one-line summary with times relative to
// the request's start, which is what a user acts on ("submit 1h before
// the start: 64 nodes × 3h (2h + 1h padding), p=0.90, worst-case extra
// 230400 node-s"); the absolute instants are in the fields.
func (p Plan) String() string {
	if !p.Possible {
		return "NOT_POSSIBLE"
	}
	_, extra := p.Cost()
	return fmt.Sprintf("submit %s before the start: %d nodes × %s (%s + %s padding), p=%.2f, worst-case extra %d node-s",
		span(p.Start-p.Submit), p.Nodes, span(p.Walltime), span(p.Request.Walltime), span(p.Walltime-p.Request.Walltime), p.Prob, extra)
}

// span writes s ≥ 0 seconds as a short duration: 1h, 2h30m, 45s, 1h0m5s
// (hours are not folded into days: walltimes are asked in hours).
func span(s int64) string {
	h, m, sec := s/3600, s%3600/60, s%60
	switch {
	case s == 0:
		return "0s"
	case h > 0 && sec == 0 && m == 0:
		return fmt.Sprintf("%dh", h)
	case h > 0 && sec == 0:
		return fmt.Sprintf("%dh%dm", h, m)
	case h > 0:
		return fmt.Sprintf("%dh%dm%ds", h, m, sec)
	case m > 0 && sec == 0:
		return fmt.Sprintf("%dm", m)
	case m > 0:
		return fmt.Sprintf("%dm%ds", m, sec)
	}
	return fmt.Sprintf("%ds", sec)
}

// PlanLatest is the default "min-overhead" mode of §3: the plan for r at the
// latest point of t whose probability is at least reqProb, which minimises the
// worst-case overhead among the plans meeting the target. It returns
// NOT_POSSIBLE when no point qualifies, and so for a reqProb outside
// (0, 1] (NaN included), which Latest and NewReplanner report as errors;
// points with probabilities outside [0, 1] never qualify (see
// ProbabilityTrajectory.Latest).
func (t ProbabilityTrajectory) PlanLatest(r Request, reqProb float64) Plan {
	if pt, ok := t.Latest(reqProb); ok {
		return planAt(r, pt)
	}
	return Plan{Request: r}
}

// PlanMax is the "max-probability" mode of §3: the plan for r at the point
// of t with the highest probability, the latest one on ties (it costs the least). A
// trajectory that is empty or all zero gives NOT_POSSIBLE: no submission
// has any chance.
func (t ProbabilityTrajectory) PlanMax(r Request) Plan {
	if pt, ok := t.Max(); ok {
		return planAt(r, pt)
	}
	return Plan{Request: r}
}

func planAt(r Request, pt Point) Plan {
	return Plan{Request: r, Possible: true, Submit: pt.Submit, Walltime: r.Padded(pt.Submit), Prob: pt.Prob}
}
