package varq

import "testing"

// shiftingForecaster gives probability hi to submissions made at least
// cut seconds before the start and lo to later ones; a test moves cut to
// mimic a change point in the queue.
type shiftingForecaster struct {
	cut    int64
	hi, lo float64
}

func (f *shiftingForecaster) ProbWithin(_ int, _, within int64) (float64, bool) {
	if within >= f.cut {
		return f.hi, true
	}
	return f.lo, true
}

func TestReplannerFollowsChangePoint(t *testing.T) {
	const T = 1000000
	r := Request{Nodes: 16, Walltime: 1800, Start: T + 6*3600}
	f := &shiftingForecaster{cut: 3600, hi: 0.8, lo: 0.3}

	for _, tc := range []struct {
		name   string
		abort  bool
		newCut int64   // cut after the change point at T+60
		newHi  float64 // hi after the change point
		want   Action
		wantAt int64 // time of the final action
	}{
		// Waits of the predictor shrink: the submission can move later.
		{"later", false, 600, 0.8, Submit, T + 6*3600 - 600},
		// The target becomes unreachable: fall back to the latest argmax
		// (5 h before the start), or give up.
		{"argmax", false, 5 * 3600, 0.6, Submit, T + 3600},
		{"abort", true, 5 * 3600, 0.6, Drop, T + 60},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f.cut, f.hi = 3600, 0.8
			rp, err := NewReplanner(f, r, ReplanConfig{ReqProb: 0.75, Abort: tc.abort})
			if err != nil {
				t.Fatal(err)
			}
			now := int64(T)
			d, err := rp.Decide(now)
			if err != nil || d.Action != Wait || d.Plan.Submit != r.Start-3600 || d.Next != now+30 {
				t.Fatalf("first decision %+v, %v; want wait, plan at start−3600", d, err)
			}
			for d.Action == Wait {
				now = d.Next
				if now == T+60 {
					f.cut, f.hi = tc.newCut, tc.newHi
				}
				if d, err = rp.Decide(now); err != nil {
					t.Fatal(err)
				}
			}
			if d.Action != tc.want || now != tc.wantAt {
				t.Errorf("%v at T+%d, want %v at T+%d", d.Action, now-T, tc.want, tc.wantAt-T)
			}
			if d.Action == Submit && d.Plan.Walltime != r.Padded(now) {
				t.Errorf("submitted walltime %d, want %d", d.Plan.Walltime, r.Padded(now))
			}
		})
	}
}

func TestReplannerRefusesAndValidates(t *testing.T) {
	f := &shiftingForecaster{cut: 3600, hi: 0.6, lo: 0.3}
	r := Request{Nodes: 1, Walltime: 60, Start: 7200}
	rp, err := NewReplanner(f, r, ReplanConfig{ReqProb: 0.95})
	if err != nil {
		t.Fatal(err)
	}
	if d, err := rp.Decide(0); err != nil || d.Action != Refuse || d.Plan.Possible {
		t.Errorf("decision %+v, %v; want refuse", d, err)
	}
	for _, cfg := range []ReplanConfig{{}, {ReqProb: 1.5}, {ReqProb: 0.5, Step: -1}, {ReqProb: 0.5, Every: 1 << 41}} {
		if _, err := NewReplanner(f, r, cfg); err == nil {
			t.Errorf("config %+v accepted", cfg)
		}
	}
	if _, err := NewReplanner(f, Request{Nodes: 0, Walltime: 1}, ReplanConfig{ReqProb: 0.5}); err == nil {
		t.Error("request with 0 nodes accepted")
	}
	if _, err := NewReplanner(nil, r, ReplanConfig{ReqProb: 0.5}); err == nil {
		t.Error("nil forecaster accepted")
	}
	// MaxProbability mode plans without a target.
	if _, err := NewReplanner(f, r, ReplanConfig{MaxProbability: true}); err != nil {
		t.Error(err)
	}
}

func TestTrajectoryErrors(t *testing.T) {
	r := Request{Nodes: 1, Walltime: 60, Start: 600}
	bad := ForecasterFunc(func(int, int64, int64) (float64, bool) { return 1.2, true })
	if _, err := Trajectory(bad, r, 0, 0); err == nil {
		t.Error("probability 1.2 accepted")
	}
	ok := ForecasterFunc(func(int, int64, int64) (float64, bool) { return 0.5, true })
	if _, err := Trajectory(ok, r, 0, -30); err == nil {
		t.Error("negative step accepted")
	}
	if traj, err := Trajectory(ok, r, 600, 0); err != nil || len(traj) != 0 {
		t.Errorf("trajectory at the start time: %v, %v", traj, err)
	}
	if _, err := Latest(nil, r, 0, 0, 0.5); err == nil {
		t.Error("Latest with a nil forecaster accepted")
	}
	if _, err := Latest(bad, r, 0, 0, 0.5); err == nil {
		t.Error("Latest accepted probability 1.2")
	}
	if p, err := Latest(ok, r, 600, 0, 0.5); err != nil || p.Possible {
		t.Errorf("Latest at the start time: %v, %v", p, err)
	}
	if traj, _ := Trajectory(ok, r, 0, 0); len(traj) != 20 {
		t.Errorf("10 min at 30 s: %d points, want 20", len(traj))
	}
}

// A forecaster that goes silent (0 everywhere, QBETS's "machine may be
// down") after the request was accepted does not cost the reservation: the
// plan is kept and submitted at its time. Silent at arrival, it is refused.
func TestReplannerKeepsPlanThroughSilence(t *testing.T) {
	const T = 1000000
	r := Request{Nodes: 16, Walltime: 1800, Start: T + 6*3600}
	for _, onlyAtSubmit := range []bool{false, true} {
		f := &shiftingForecaster{cut: 3600, hi: 0.8, lo: 0.3}
		rp, err := NewReplanner(f, r, ReplanConfig{ReqProb: 0.75, OnlyAtSubmit: onlyAtSubmit})
		if err != nil {
			t.Fatal(err)
		}
		d, err := rp.Decide(T)
		if err != nil || d.Action != Wait {
			t.Fatalf("first decision %+v, %v", d, err)
		}
		accepted := d.Plan
		f.hi, f.lo = 0, 0 // silent from now on
		now := d.Next
		for d.Action == Wait {
			if d, err = rp.Decide(now); err != nil {
				t.Fatal(err)
			}
			now = d.Next
		}
		if d.Action != Submit || d.Plan != accepted {
			t.Errorf("OnlyAtSubmit=%v: %v %v, want submit of the accepted plan %v", onlyAtSubmit, d.Action, d.Plan, accepted)
		}
	}
	f := &shiftingForecaster{}
	rp, err := NewReplanner(f, r, ReplanConfig{ReqProb: 0.75})
	if err != nil {
		t.Fatal(err)
	}
	if d, err := rp.Decide(T); err != nil || d.Action != Refuse {
		t.Errorf("silent at arrival: %+v, %v; want refuse", d, err)
	}
}
