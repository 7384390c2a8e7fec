package varq

// Latest is Trajectory(f, r, now, step).PlanLatest(r, reqProb) computed
// backwards and lazily: it asks the forecaster about the latest candidate
// submissions first and stops at the first that meets reqProb, so an
// accepted request usually costs a few forecasts instead of the whole
// trajectory. Simulations that plan thousands of requests use it; the
// result is identical to the two-step form. Unlike PlanLatest it checks
// reqProb: a target outside (0, 1], or NaN, is an error, as in
// ReplanConfig. The limits of Trajectory apply.
func Latest(f Forecaster, r Request, now, step int64, reqProb float64) (Plan, error) {
	if _, err := checkArgs(f, r, now, step); err != nil {
		return Plan{}, err
	}
	if err := checkProb("reqProb", reqProb); err != nil {
		return Plan{}, err
	}
	if step == 0 {
		step = DefaultStep
	}
	if now >= r.Start {
		return Plan{Request: r}, nil
	}
	last := now + (r.Start-now-1)/step*step // the last grid point before Start
	for s := last; s >= now; s -= step {
		p, err := forecast(f, r, s)
		if err != nil {
			return Plan{}, err
		}
		if p >= reqProb {
			return planAt(r, Point{Submit: s, Prob: p}), nil
		}
	}
	return Plan{Request: r}, nil
}
