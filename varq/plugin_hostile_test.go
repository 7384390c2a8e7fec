package varq

import (
	"math"
	"testing"
)

// A nil ForecasterFunc or nil pointer is refused like a nil interface (it
// was accepted, then panicked when asked); planning over a hand-built
// trajectory never promises a point whose probability is outside [0, 1]
// (a plan at p = 2 was returned), nor a target outside (0, 1] (a plan at
// probability 0 was "possible").
func TestNilForecastersAndBadPoints(t *testing.T) {
	r := Request{Nodes: 1, Walltime: 60, Start: 3600}
	var fn ForecasterFunc
	type ptrF struct{ ForecasterFunc }
	var ptr *ptrF
	for name, f := range map[string]Forecaster{"nil func": fn, "nil pointer": ptr} {
		if _, err := Trajectory(f, r, 0, 30); err == nil {
			t.Errorf("Trajectory, %s: no error", name)
		}
		if _, err := NewReplanner(f, r, ReplanConfig{ReqProb: 0.5}); err == nil {
			t.Errorf("NewReplanner, %s: no error", name)
		}
		good := ForecasterFunc(func(int, int64, int64) (float64, bool) { return 0.5, true })
		if _, err := NewReplanner(good, r, ReplanConfig{ReqProb: 0.5, Own: f}); err == nil {
			t.Errorf("ReplanConfig.Own, %s: no error", name)
		}
	}
	traj := ProbabilityTrajectory{{Submit: 0, Prob: 0.6}, {Submit: 30, Prob: 2}, {Submit: 60, Prob: math.NaN()}, {Submit: 90, Prob: 0}}
	if p := traj.PlanLatest(r, 0.5); !p.Possible || p.Submit != 0 {
		t.Errorf("PlanLatest = %v, want the point at 0", p)
	}
	if p := traj.PlanMax(r); !p.Possible || p.Submit != 0 {
		t.Errorf("PlanMax = %v, want the point at 0", p)
	}
	for _, q := range []float64{0, -1, math.NaN(), 1.5} {
		if p := traj.PlanLatest(r, q); p.Possible {
			t.Errorf("PlanLatest(target %v) = %v, want NOT_POSSIBLE", q, p)
		}
	}
}
