package varq

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
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

// ProbabilityTrajectory is the answer of §3 for one request (Figure 5.3,
// corrected): the candidate submissions now, now+step, … before the
// request's start time, in time order, each with the probability that the
// padded job submitted then is running by the start time. It is not
// monotone: a later submission asks for a shorter job, easier to backfill,
// but leaves less time to start. Compute one with Trajectory; read a plan
// off it with PlanLatest or PlanMax.
type ProbabilityTrajectory []Point

// At returns the point for a submission at time submit, the last point at
// or before it; ok is false when submit precedes the first point or the
// trajectory is empty.
func (t ProbabilityTrajectory) At(submit int64) (pt Point, ok bool) {
	i, _ := slices.BinarySearchFunc(t, submit, func(p Point, s int64) int { return cmp.Compare(p.Submit, s+1) })
	if i == 0 {
		return Point{}, false
	}
	return t[i-1], true
}

// Latest returns the latest point whose probability is at least reqProb
// (the plan of PlanLatest); ok is false when none is, and for a reqProb
// outside (0, 1]. A point whose probability is outside [0, 1] (NaN
// included; Trajectory never makes one) never qualifies.
func (t ProbabilityTrajectory) Latest(reqProb float64) (pt Point, ok bool) {
	if !(reqProb > 0 && reqProb <= 1) {
		return Point{}, false
	}
	for i := len(t) - 1; i >= 0; i-- {
		if t[i].Prob >= reqProb && t[i].Prob <= 1 {
			return t[i], true
		}
	}
	return Point{}, false
}

// Max returns the most probable point, the latest one on ties (the plan
// of PlanMax); ok is false when the trajectory is empty or all zero.
// Points whose probability is outside [0, 1] (NaN included) are skipped.
func (t ProbabilityTrajectory) Max() (pt Point, ok bool) {
	best := -1
	for i, p := range t {
		if p.Prob > 0 && p.Prob <= 1 && (best < 0 || p.Prob >= t[best].Prob) {
			best = i
		}
	}
	if best < 0 {
		return Point{}, false
	}
	return t[best], true
}

// Trajectory computes the probability trajectory of §3 (Figure 5.3,
// corrected): for s = now, now+step, … while s < r.Start, the probability
// that a job of r.Nodes processors padded to r.Padded(s) seconds, submitted
// at s, starts within r.Start − s seconds. A step of 0 means DefaultStep.
// A 12 h request has 1440 points. Arguments out of the package limits
// (times within ±2^40 s, at most 2^20 points) are errors; see
// Request.TrajectoryLen.
//
// The result is empty when now ≥ r.Start: there is no time left to submit.
// Probabilities outside [0, 1] (or NaN) from the forecaster are errors; a
// forecaster with nothing to answer from (ok false) gives probability 0.
func Trajectory(f Forecaster, r Request, now, step int64) (ProbabilityTrajectory, error) {
	return appendTrajectory(nil, f, r, now, step)
}

// appendTrajectory is Trajectory appending to dst, so that a caller
// planning many requests can reuse one buffer.
func appendTrajectory(dst ProbabilityTrajectory, f Forecaster, r Request, now, step int64) (ProbabilityTrajectory, error) {
	n, err := checkArgs(f, r, now, step)
	if err != nil {
		return dst, err
	}
	if step == 0 {
		step = DefaultStep
	}
	dst = growPoints(dst, n)
	for s := now; s < r.Start; s += step {
		p, err := forecast(f, r, s)
		if err != nil {
			return dst, err
		}
		dst = append(dst, Point{Submit: s, Prob: p})
	}
	return dst, nil
}

func growPoints(dst ProbabilityTrajectory, n int) ProbabilityTrajectory {
	if cap(dst)-len(dst) >= n {
		return dst
	}
	grown := make(ProbabilityTrajectory, len(dst), len(dst)+n)
	copy(grown, dst)
	return grown
}

// checkArgs checks the arguments of a trajectory computation and returns
// its number of points (TrajectoryLen).
func checkArgs(f Forecaster, r Request, now, step int64) (int, error) {
	if missing(f) {
		return 0, errors.New("varq: nil Forecaster")
	}
	return r.TrajectoryLen(now, step)
}

// forecast asks f about submitting r at s: a job padded to W + (D − s)
// that must start within D − s.
func forecast(f Forecaster, r Request, s int64) (float64, error) {
	within := r.Start - s
	p, ok := f.ProbWithin(r.Nodes, r.Walltime+within, within)
	if !ok {
		return 0, nil // no forecast: no chance to promise
	}
	if !(p >= 0 && p <= 1) {
		return 0, fmt.Errorf("varq: forecaster returned probability %v for submission at %d", p, s)
	}
	return p, nil
}
