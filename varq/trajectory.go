package varq

import (
	"errors"
	"fmt"
)

// DefaultStep is the spacing of trajectory points, 30 s as in the thesis
// (Figure 5.3).
const DefaultStep = 30

// Point is one candidate submission: submitting at Submit (absolute
// seconds) starts the padded job by the reservation's start with
// probability Prob.
type Point struct {
	Submit int64
	Prob   float64
}

// Trajectory computes the probability trajectory of §3 (Figure 5.3,
// corrected): for s = now, now+step, … while s < r.Start, the probability
// that a job of r.Nodes processors padded to r.Padded(s) seconds, submitted
// at s, starts within r.Start − s seconds. A step of 0 means DefaultStep.
// A 12 h request has 1440 points.
//
// The result is empty when now ≥ r.Start: there is no time left to submit.
// Probabilities outside [0, 1] (or NaN) from the forecaster are errors.
func Trajectory(f Forecaster, r Request, now, step int64) ([]Point, error) {
	return AppendTrajectory(nil, f, r, now, step)
}

// AppendTrajectory is Trajectory appending to dst, so that a caller
// planning many requests can reuse one buffer.
func AppendTrajectory(dst []Point, f Forecaster, r Request, now, step int64) ([]Point, error) {
	if err := checkArgs(f, r, step); err != nil {
		return dst, err
	}
	if step == 0 {
		step = DefaultStep
	}
	if now >= r.Start {
		return dst, nil
	}
	n := (r.Start - now + step - 1) / step
	dst = growPoints(dst, int(n))
	for s := now; s < r.Start; s += step {
		p, err := forecast(f, r, s)
		if err != nil {
			return dst, err
		}
		dst = append(dst, Point{Submit: s, Prob: p})
	}
	return dst, nil
}

func growPoints(dst []Point, n int) []Point {
	if cap(dst)-len(dst) >= n {
		return dst
	}
	grown := make([]Point, len(dst), len(dst)+n)
	copy(grown, dst)
	return grown
}

func checkArgs(f Forecaster, r Request, step int64) error {
	if f == nil {
		return errors.New("varq: nil Forecaster")
	}
	if step < 0 {
		return fmt.Errorf("varq: negative trajectory step %d", step)
	}
	return r.Validate()
}

// forecast asks f about submitting r at s: a job padded to W + (D − s)
// that must start within D − s.
func forecast(f Forecaster, r Request, s int64) (float64, error) {
	within := r.Start - s
	p := f.ProbWithin(r.Nodes, r.Walltime+within, within)
	if !(p >= 0 && p <= 1) {
		return 0, fmt.Errorf("varq: forecaster returned probability %v for submission at %d", p, s)
	}
	return p, nil
}
