package varq

import (
	"fmt"

	"github.com/batchq/batchq/internal/plugin"
)

// missing reports a Forecaster that cannot answer: nil, or a typed nil
// (a nil ForecasterFunc or nil pointer), which would panic when asked.
func missing(f Forecaster) bool { return plugin.Missing(f) }

// Limits on what varq plans (the package doc states them). They keep every
// computation in range and bound the work of one call: a trajectory has at
// most maxPoints points, so Trajectory, Latest and a Replanner's Decide
// ask the forecaster at most maxPoints questions and allocate at most that
// many points. A caller that gives milliseconds for seconds, or ten years
// at a 1-s step, gets an error instead of a call that runs for minutes.
const (
	// maxTime bounds, in seconds, the absolute value of instants (now, a
	// request's Start), walltimes and trajectory steps: 2^40 s, about
	// 35,000 years. Within it the padded walltime W + (D − s) cannot
	// overflow.
	maxTime = 1 << 40
	// maxPoints bounds the number of trajectory points of one call,
	// ⌈(Start − now)/step⌉: 2^20, about a year ahead at the 30-s
	// DefaultStep or 12 days at a 1-s step.
	maxPoints = 1 << 20
)

// TrajectoryLen returns the number of points of Trajectory(f, r, now,
// step), 0 when now ≥ r.Start, after checking r, now and step (0 means
// DefaultStep) against the limits: an error names the argument out of
// range, including a horizon of more than 2^20 points.
func (r Request) TrajectoryLen(now, step int64) (int, error) {
	if err := r.Validate(); err != nil {
		return 0, err
	}
	switch {
	case step < 0 || step > maxTime:
		return 0, fmt.Errorf("varq: trajectory step %d outside [0, 2^40 s] (0 means %d s)", step, DefaultStep)
	case now < -maxTime || now > maxTime:
		return 0, fmt.Errorf("varq: now %d outside ±2^40 s", now)
	}
	if step == 0 {
		step = DefaultStep
	}
	if now >= r.Start {
		return 0, nil
	}
	n := (r.Start - now + step - 1) / step
	if n > maxPoints {
		return 0, fmt.Errorf("varq: horizon Start − now = %d s at step %d s is %d points, more than the limit of %d",
			r.Start-now, step, n, maxPoints)
	}
	return int(n), nil
}

// checkProb reports a target probability outside (0, 1], NaN included;
// name is the argument's name. Every target varq takes is checked by it.
func checkProb(name string, p float64) error {
	if !(p > 0 && p <= 1) {
		return fmt.Errorf("varq: %s %v outside (0, 1]", name, p)
	}
	return nil
}
