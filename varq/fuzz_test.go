package varq

import (
	"math"
	"testing"
)

// FuzzPlan plans random requests on a forecaster whose answers come from
// the input: no panic, errors for arguments out of the limits, at most
// maxPoints forecasts, and Latest is PlanLatest over Trajectory.
func FuzzPlan(f *testing.F) {
	f.Add(4, int64(3600), int64(7200), int64(0), int64(30), 0.9, uint64(7))
	f.Add(1, int64(1), int64(1<<40), int64(-5), int64(1), math.NaN(), uint64(0))
	f.Add(0, int64(math.MaxInt64), int64(math.MinInt64), int64(math.MaxInt64), int64(-1), 1.5, uint64(3))
	f.Fuzz(func(t *testing.T, nodes int, wall, start, now, step int64, prob float64, seed uint64) {
		calls := 0
		fc := ForecasterFunc(func(n int, w, within int64) (float64, bool) {
			calls++
			if calls > maxPoints {
				t.Fatalf("more than maxPoints forecasts")
			}
			if w != wall+within || within <= 0 {
				t.Fatalf("asked walltime %d within %d for walltime %d", w, within, wall)
			}
			h := (seed ^ uint64(within)*0x9e3779b97f4a7c15) >> 11
			return float64(h%101) / 100, h%7 != 0
		})
		r := Request{Nodes: nodes, Walltime: wall, Start: start}
		n, errLen := r.TrajectoryLen(now, step)
		traj, errT := Trajectory(fc, r, now, step)
		if (errLen == nil) != (errT == nil) {
			t.Fatalf("TrajectoryLen err %v, Trajectory err %v", errLen, errT)
		}
		if errT == nil && len(traj) != n {
			t.Fatalf("%d points, TrajectoryLen %d", len(traj), n)
		}
		calls = 0
		p, errL := Latest(fc, r, now, step, prob)
		if errT == nil && (prob > 0 && prob <= 1) != (errL == nil) {
			t.Fatalf("target %v: Latest err %v", prob, errL)
		}
		if errL == nil && p != traj.PlanLatest(r, prob) {
			t.Fatalf("Latest %v, PlanLatest %v", p, traj.PlanLatest(r, prob))
		}
		if p.Possible && (p.Submit >= r.Start || p.Submit < now || p.Walltime != r.Padded(p.Submit) || p.Walltime <= 0) {
			t.Fatalf("plan %+v for %+v at %d", p, r, now)
		}
	})
}
