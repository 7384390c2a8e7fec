package coalloc

import (
	"testing"

	"github.com/batchq/batchq/varq"
	"pgregory.net/rapid"
)

// stepped answers 0.99 for a window of at least 3 h, 0.96 for 1–3 h and
// 0.5 below: submitting earlier is likelier, as with the fixed processor
// ranges of qbets, where padding does not change the cluster.
var stepped = varq.ForecasterFunc(func(_ int, _, within int64) (float64, bool) {
	switch {
	case within >= 3*3600:
		return 0.99, true
	case within >= 3600:
		return 0.96, true
	}
	return 0.5, true
})

func TestPointRule(t *testing.T) {
	r := varq.Request{Nodes: 4, Walltime: 3600, Start: 4 * 3600}
	res := []Resource{{Name: "stepped", Forecaster: stepped}, {Name: "low", Forecaster: constant(0.7)}}
	target := pIndep(0.90, 2) // 0.9487
	for _, c := range []struct {
		rule   pointRule
		submit []int64
		prob   []float64
	}{
		// The maximum: the latest point of the 0.99 plateau, 3 h before
		// the start; the constant site at its last point.
		{atMax, []int64{3600, 14370}, []float64{0.99, 0.7}},
		// The latest point meeting 0.9487: 1 h before the start, at 0.96;
		// the constant site never meets it and falls back to its maximum.
		{latestMeeting, []int64{10800, 14370}, []float64{0.96, 0.7}},
	} {
		tab, plans, err := probTable([]varq.Request{r}, res, target, 0, Config{LatestMeeting: c.rule == latestMeeting})
		if err != nil {
			t.Fatal(err)
		}
		for s := range res {
			if p := plans[0][s]; !p.Possible || p.Submit != c.submit[s] || p.Prob != c.prob[s] || tab[0][s] != p.Prob {
				t.Errorf("%v on %s: plan %v, table %v; want submit at %d, p %v",
					c.rule, res[s].Name, p, tab[0][s], c.submit[s], c.prob[s])
			}
		}
	}
	// Lower worst-case overhead is the point of the rule: 4·(14400 −
	// 10800) node-s instead of 4·(14400 − 3600).
	_, plans, _ := probTable([]varq.Request{r}, res, target, 0, Config{LatestMeeting: true})
	if _, got := plans[0][0].Cost(); got != 4*3600 {
		t.Errorf("worst-case extra %d, want %d", got, 4*3600)
	}
	if _, err := NewPlan([]varq.Request{r}, res, 1.5, 0, Config{}); err == nil {
		t.Error("P_all 1.5 accepted")
	}
}

// trajectoryOf is a forecaster whose trajectory for r from now at step is
// probs: submitting at now + i·step has probability probs[i].
func trajectoryOf(probs []float64, r varq.Request, now, step int64) varq.Forecaster {
	return varq.ForecasterFunc(func(_ int, _, within int64) (float64, bool) {
		return probs[(r.Start-within-now)/step], true
	})
}

// TestPointRuleProperties: on random trajectories, latestMeeting plans at
// the latest point meeting the target when there is one, and otherwise at
// the maximum, which is what atMax always picks.
func TestPointRuleProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 50).Draw(t, "n")
		probs := rapid.SliceOfN(rapid.Float64Range(0, 1), n, n).Draw(t, "probs")
		target := rapid.Float64Range(0.01, 1).Draw(t, "target")
		r := varq.Request{Nodes: 1, Walltime: 60, Start: int64(n) * 30}
		traj := make([]varq.Point, n)
		for i, p := range probs {
			traj[i] = varq.Point{Submit: int64(i) * 30, Prob: p}
		}
		latest, best := -1, -1
		for i, pt := range traj {
			if pt.Prob >= target {
				latest = i
			}
			if pt.Prob > 0 && (best < 0 || pt.Prob >= traj[best].Prob) {
				best = i
			}
		}
		f := trajectoryOf(probs, r, 0, 30)
		var rec recorder
		mx, err := pointPlan(&rec, f, r, 0, 30, target, atMax)
		if err != nil {
			t.Fatal(err)
		}
		lm, err := pointPlan(&rec, f, r, 0, 30, target, latestMeeting)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case best < 0:
			if mx.Possible || lm.Possible {
				t.Fatalf("all-zero trajectory planned: %v, %v", mx, lm)
			}
			return
		case mx.Submit != traj[best].Submit:
			t.Fatalf("atMax at %d, latest argmax at %d", mx.Submit, traj[best].Submit)
		case latest >= 0 && (lm.Submit != traj[latest].Submit || lm.Prob < target):
			t.Fatalf("latestMeeting at %d (p %v), latest feasible at %d", lm.Submit, lm.Prob, traj[latest].Submit)
		case latest < 0 && lm.Submit != mx.Submit:
			t.Fatalf("latestMeeting without a feasible point at %d, maximum at %d", lm.Submit, mx.Submit)
		}
		if lm.Submit < mx.Submit && latest >= 0 {
			t.Fatalf("the latest feasible point %d is before the argmax %d, which is feasible too", lm.Submit, mx.Submit)
		}
	})
}

// TestPointPlanIsFullTrajectory: pointPlan, which asks only what its
// rule needs, plans exactly as reading the rule off the whole trajectory
// (PlanLatest, falling back to PlanMax, or PlanMax), on any grid, with
// probabilities that often tie or reach 1, and asks no point twice.
func TestPointPlanIsFullTrajectory(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 60).Draw(t, "n")
		step := rapid.Int64Range(1, 90).Draw(t, "step")
		now := rapid.Int64Range(0, 1000).Draw(t, "now")
		// The start is after the last point, not necessarily one step.
		r := varq.Request{Nodes: 1, Walltime: 60, Start: now + int64(n-1)*step + rapid.Int64Range(1, step).Draw(t, "gap")}
		// Few distinct values: ties, zeros and ones are common.
		probs := rapid.SliceOfN(rapid.SampledFrom([]float64{0, 0.3, 0.87, 0.9, 0.95, 1}), n, n).Draw(t, "probs")
		target := rapid.SampledFrom([]float64{0.3, 0.866, 0.9, 0.9487, 1}).Draw(t, "target")
		rule := rapid.SampledFrom([]pointRule{atMax, latestMeeting}).Draw(t, "rule")
		asked := map[int64]bool{}
		f := trajectoryOf(probs, r, now, step)
		counted := varq.ForecasterFunc(func(nodes int, walltime, within int64) (float64, bool) {
			if asked[within] {
				t.Fatalf("asked twice about submitting at %d", r.Start-within)
			}
			asked[within] = true
			return f.ProbWithin(nodes, walltime, within)
		})
		rec := &recorder{traj: make([]varq.Point, rapid.IntRange(0, 5).Draw(t, "stale"))} // reused scratch
		got, err := pointPlan(rec, counted, r, now, step, target, rule)
		if err != nil {
			t.Fatal(err)
		}
		traj, err := varq.Trajectory(f, r, now, step)
		if err != nil || len(traj) != n {
			t.Fatalf("trajectory of %d points, %v; want %d", len(traj), err, n)
		}
		want := traj.PlanMax(r)
		if rule == latestMeeting {
			if p := traj.PlanLatest(r, target); p.Possible {
				want = p
			}
		}
		if got != want {
			t.Fatalf("%v: pointPlan %+v, full trajectory %+v", rule, got, want)
		}
	})
}

// A forecaster answering outside [0, 1] at a point the rule reaches is an
// error, as it is for the whole trajectory.
func TestPointPlanBadForecast(t *testing.T) {
	r := varq.Request{Nodes: 1, Walltime: 60, Start: 3600}
	var rec recorder
	for _, rule := range []pointRule{atMax, latestMeeting} {
		if _, err := pointPlan(&rec, constant(1.5), r, 0, 30, 0.9, rule); err == nil {
			t.Errorf("%v: probability 1.5 accepted", rule)
		}
	}
}
