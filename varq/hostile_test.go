package varq

import (
	"math"
	"strings"
	"testing"
)

// bounded is a forecaster that answers 0 and, past maxPoints questions,
// an invalid probability, so a planner that does not bound its horizon
// fails fast instead of running for minutes.
type bounded struct{ calls int }

func (b *bounded) ProbWithin(int, int64, int64) (float64, bool) {
	b.calls++
	if b.calls > maxPoints {
		return 2, true
	}
	return 0, true
}

// A start far ahead (milliseconds given for seconds, ten years at a 1-s
// step) is an error naming the limit, before any forecast.
func TestFarHorizonIsError(t *testing.T) {
	const year = 365 * 86400
	cases := []struct {
		name      string
		r         Request
		now, step int64
	}{
		{"12 h in ms at 30 s", Request{Nodes: 4, Walltime: 3600, Start: 12 * 3600 * 1000}, 0, 30},
		{"ten years at 1 s", Request{Nodes: 4, Walltime: 3600, Start: 10 * year}, 0, 1},
		{"start near maxTime", Request{Nodes: 1, Walltime: 1, Start: maxTime}, 0, 0},
	}
	for _, c := range cases {
		f := &bounded{}
		_, err := Latest(f, c.r, c.now, c.step, 0.9)
		if err == nil || !strings.Contains(err.Error(), "more than the limit") || f.calls != 0 {
			t.Errorf("%s: Latest: err = %v after %d forecasts, want a points-limit error before any", c.name, err, f.calls)
		}
		f = &bounded{}
		_, err = Trajectory(f, c.r, c.now, c.step)
		if err == nil || !strings.Contains(err.Error(), "more than the limit") || f.calls != 0 {
			t.Errorf("%s: Trajectory: err = %v after %d forecasts, want a points-limit error before any", c.name, err, f.calls)
		}
	}
	// Just inside the bound is planned.
	r := Request{Nodes: 1, Walltime: 60, Start: maxPoints}
	if traj, err := Trajectory(&bounded{}, r, 0, 1); err != nil || len(traj) != maxPoints {
		t.Errorf("maxPoints points: %d points, err %v", len(traj), err)
	}
}

// Out-of-range arguments are errors naming the argument.
func TestOutOfRangeArgs(t *testing.T) {
	f := &bounded{}
	ok := Request{Nodes: 1, Walltime: 3600, Start: 7200}
	cases := []struct {
		name, want string
		r          Request
		now, step  int64
		prob       float64
	}{
		{"NaN target", "reqProb", ok, 0, 30, math.NaN()},
		{"target 1.5", "reqProb", ok, 0, 30, 1.5},
		{"target 0", "reqProb", ok, 0, 30, 0},
		{"walltime near 2^63", "Walltime", Request{Nodes: 1, Walltime: math.MaxInt64 - 10, Start: 7200}, 0, 30, 0.9},
		{"start near 2^63", "Start", Request{Nodes: 1, Walltime: 60, Start: math.MaxInt64}, 0, 30, 0.9},
		{"now near -2^63", "now", ok, math.MinInt64, 30, 0.9},
		{"step near 2^63", "step", ok, 0, math.MaxInt64, 0.9},
		{"negative step", "step", ok, 0, -1, 0.9},
	}
	for _, c := range cases {
		_, err := Latest(f, c.r, c.now, c.step, c.prob)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Latest err = %v, want one naming %s", c.name, err, c.want)
		}
	}
	// The same targets are rejected the same way by NewReplanner.
	for _, p := range []float64{math.NaN(), 1.5, 0, -1} {
		_, errL := Latest(f, ok, 0, 30, p)
		_, errR := NewReplanner(f, ok, ReplanConfig{ReqProb: p})
		if errL == nil || errR == nil {
			t.Errorf("target %v: Latest err %v, NewReplanner err %v; want both errors", p, errL, errR)
		}
	}
	if f.calls != 0 {
		t.Errorf("%d forecasts asked for bad arguments", f.calls)
	}
}
