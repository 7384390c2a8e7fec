package varq

import (
	"testing"

	"pgregory.net/rapid"
)

// tableForecaster answers from a table of probabilities indexed by the
// time left before the start, in steps; it stands for any forecaster, as
// the plan properties must hold whatever the predictions are.
type tableForecaster struct {
	step  int64
	probs []float64
}

func (f tableForecaster) ProbWithin(_ int, _, within int64) (float64, bool) {
	i := int((within - 1) / f.step)
	if i >= len(f.probs) {
		return f.probs[len(f.probs)-1], true
	}
	return f.probs[i], true
}

func drawCase(t *rapid.T) (tableForecaster, Request, int64, int64) {
	step := rapid.Int64Range(1, 600).Draw(t, "step")
	now := rapid.Int64Range(-1e6, 1e9).Draw(t, "now")
	r := Request{
		Nodes:    rapid.IntRange(1, 4096).Draw(t, "nodes"),
		Walltime: rapid.Int64Range(1, 1e5).Draw(t, "walltime"),
		Start:    now + rapid.Int64Range(-100, 200*step).Draw(t, "lead"),
	}
	probs := rapid.SliceOfN(rapid.Float64Range(0, 1), 1, 300).Draw(t, "probs")
	return tableForecaster{step, probs}, r, now, step
}

func TestPlanProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f, r, now, step := drawCase(t)
		reqProb := rapid.Float64Range(0.01, 1).Draw(t, "reqProb")
		traj, err := Trajectory(f, r, now, step)
		if err != nil {
			t.Fatal(err)
		}
		// Points are every step from now, all strictly before the start.
		for i, pt := range traj {
			if pt.Submit != now+int64(i)*step || pt.Submit >= r.Start {
				t.Fatalf("point %d at %d (now %d, step %d, start %d)", i, pt.Submit, now, step, r.Start)
			}
		}
		if r.Start > now && (len(traj) == 0 || traj[len(traj)-1].Submit+step < r.Start) {
			t.Fatalf("trajectory stops early: %d points", len(traj))
		}

		for _, p := range []Plan{traj.PlanLatest(r, reqProb), traj.PlanMax(r)} {
			if !p.Possible {
				continue
			}
			// Never submit after (or at) the start time, nor before now.
			if p.Submit >= r.Start || p.Submit < now {
				t.Fatalf("plan submits at %d, now %d, start %d", p.Submit, now, r.Start)
			}
			// The worst-case overhead is exactly N·(D − s), the padding
			// exactly D − s.
			if req, extra := p.Cost(); extra != int64(r.Nodes)*(r.Start-p.Submit) || req != int64(r.Nodes)*r.Walltime {
				t.Fatalf("cost %d, %d for %v", req, extra, p)
			}
			if p.Walltime != r.Walltime+(r.Start-p.Submit) {
				t.Fatalf("walltime %d for %v", p.Walltime, p)
			}
			if _, extra := p.Cost(); p.ActualExtra(p.Submit) != extra {
				t.Fatalf("starting at submission does not cost the worst case")
			}
		}

		// PlanLatest returns the latest feasible step, or NOT_POSSIBLE iff
		// no step is feasible.
		lat := traj.PlanLatest(r, reqProb)
		latest := -1
		for i, pt := range traj {
			if pt.Prob >= reqProb {
				latest = i
			}
		}
		switch {
		case latest < 0 && lat.Possible:
			t.Fatalf("PlanLatest = %v, but no point reaches %v", lat, reqProb)
		case latest >= 0 && (!lat.Possible || lat.Submit != traj[latest].Submit || lat.Prob != traj[latest].Prob):
			t.Fatalf("PlanLatest = %v, latest feasible point %+v", lat, traj[latest])
		}

		// Latest computes the same plan lazily.
		lazy, err := Latest(f, r, now, step, reqProb)
		if err != nil || lazy != lat {
			t.Fatalf("Latest = %v, %v; PlanLatest = %v", lazy, err, lat)
		}

		// PlanMax has the highest probability and no later point ties it.
		mx := traj.PlanMax(r)
		for _, pt := range traj {
			if mx.Possible && (pt.Prob > mx.Prob || pt.Prob == mx.Prob && pt.Submit > mx.Submit) {
				t.Fatalf("PlanMax = %v, but %+v", mx, pt)
			}
			if !mx.Possible && pt.Prob > 0 {
				t.Fatalf("PlanMax NOT_POSSIBLE, but %+v", pt)
			}
		}
	})
}

// TestReplannerNeverLate drives a Replanner over a forecaster whose
// predictions change at every call (the queue moves while it waits) and
// checks that it submits before the start time with the walltime padded
// for the actual submission instant.
func TestReplannerNeverLate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		step := rapid.Int64Range(1, 120).Draw(t, "step")
		now := rapid.Int64Range(0, 1e6).Draw(t, "now")
		r := Request{Nodes: 8, Walltime: 3600, Start: now + rapid.Int64Range(1, 300*step).Draw(t, "lead")}
		cfg := ReplanConfig{
			MaxProbability: rapid.Bool().Draw(t, "maxProbability"),
			ReqProb:        rapid.Float64Range(0.05, 1).Draw(t, "reqProb"),
			Step:           step,
			Every:          rapid.Int64Range(0, 1000).Draw(t, "every"),
			OnlyAtSubmit:   rapid.Bool().Draw(t, "onlyAtSubmit"),
			Abort:          rapid.Bool().Draw(t, "abort"),
		}
		tables := rapid.SliceOfN(rapid.SliceOfN(rapid.Float64Range(0, 1), 1, 50), 1, 20).Draw(t, "tables")
		call := 0
		f := ForecasterFunc(func(nodes int, walltime, within int64) (float64, bool) {
			tf := tableForecaster{step, tables[call%len(tables)]}
			return tf.ProbWithin(nodes, walltime, within)
		})
		rp, err := NewReplanner(f, r, cfg)
		if err != nil {
			t.Fatal(err)
		}
		for range 100000 {
			d, err := rp.Decide(now)
			if err != nil {
				t.Fatal(err)
			}
			call++
			switch d.Action {
			case Wait:
				if d.Next <= now || d.Next >= r.Start {
					t.Fatalf("wait until %d at %d (start %d)", d.Next, now, r.Start)
				}
				now = d.Next
				continue
			case Submit:
				if now >= r.Start || d.Plan.Submit != now || d.Plan.Walltime != r.Padded(now) {
					t.Fatalf("submit %v at %d (start %d)", d.Plan, now, r.Start)
				}
			case Refuse:
				if call != 1 {
					t.Fatalf("refused after acceptance")
				}
			case Drop:
				if call == 1 {
					t.Fatalf("dropped before acceptance")
				}
			}
			if _, err := rp.Decide(now); err == nil {
				t.Fatalf("finished replanner decided again")
			}
			return
		}
		t.Fatalf("replanner never finished")
	})
}
