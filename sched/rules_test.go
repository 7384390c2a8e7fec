package sched_test

import (
	"context"
	"maps"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// Result.Changed and Summary.NoEstimate count the jobs each rule changed
// and the lines without an estimate, in every mode. P = 8; job 1 has
// everything, 2 no estimate, 3 no requested processors, 4 run time 0, 5
// ran past its estimate.
func TestChangedCounts(t *testing.T) {
	jobs := []swf.Job{job(1, 0, 100, 2, 200), job(2, 10, 100, 2, -1), job(3, 20, 100, 2, 200), job(4, 30, 0, 2, 200), job(5, 40, 300, 2, 200)}
	jobs[2].ReqProcs = -1
	for _, c := range []struct {
		peer sched.Peer
		kill bool
		want map[string]int
	}{
		{sched.PeerNone, false, map[string]int{"estimate_filled": 1}},
		{sched.PeerNone, true, map[string]int{"estimate_filled": 1, "killed_at_estimate": 1}},
		{sched.PeerPyss, false, map[string]int{"no_estimate_1s_run": 1, "zero_run_time_1s_job": 1, "run_cut_to_estimate": 1}},
		{sched.PeerPredictsim, true, map[string]int{"no_estimate_1s_run": 1, "zero_run_time_1s_job": 1, "run_cut_to_estimate": 1, "size_from_allocated": 1}},
	} {
		cfg := sched.EASY(8).WithPeer(c.peer)
		cfg.KillAtEstimate = c.kill
		res, err := sched.Run(context.Background(), cfg, jobs)
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Changed(); !maps.Equal(got, c.want) {
			t.Errorf("%v, kill %v: Changed %v, want %v", c.peer, c.kill, got, c.want)
		}
		if res.Summary.NoEstimate != 1 {
			t.Errorf("%v: NoEstimate %d, want 1", c.peer, res.Summary.NoEstimate)
		}
	}
}

// -kill ends a job only at an estimate its user gave: job 2 has none, S6
// gives it job 1's 50 s, and it runs its 1000 s. P = 4.
func TestKillOnlyAtUserEstimate(t *testing.T) {
	jobs := []swf.Job{job(1, 0, 100, 2, 50), job(2, 0, 1000, 2, -1), job(3, 10, 10, 4, 10)}
	cfg := sched.EASY(4)
	cfg.KillAtEstimate = true
	res, err := sched.Run(context.Background(), cfg, jobs)
	if err != nil {
		t.Fatal(err)
	}
	r1, r2, r3 := res.Records[0], res.Records[1], res.Records[2]
	if !r1.Killed || r1.RunTime != 50 || r2.Killed || r2.RunTime != 1000 || r2.Estimate != 50 || !r2.EstimateFilled {
		t.Errorf("job 1 killed %v run %d; job 2 killed %v run %d estimate %d filled %v", r1.Killed, r1.RunTime, r2.Killed, r2.RunTime, r2.Estimate, r2.EstimateFilled)
	}
	if r3.Start != 1000 || res.Summary.Killed != 1 || res.Summary.NoEstimate != 1 {
		t.Errorf("job 3 starts at %d (want 1000, when job 2 ends); killed %d, no estimate %d", r3.Start, res.Summary.Killed, res.Summary.NoEstimate)
	}
}

// The peers take the submissions of one instant in file order, sched in
// (submit, ID) order: jobs 9 and 8, both at 0, each filling the machine.
func TestPeerArrivalFileOrder(t *testing.T) {
	jobs := []swf.Job{job(9, 0, 100, 4, 100), job(8, 0, 100, 4, 100)}
	check(t, "default", sched.EASY(4), jobs, want{8: 0, 9: 100})
	check(t, "pyss", sched.EASY(4).WithPeer(sched.PeerPyss), jobs, want{9: 0, 8: 100})
	check(t, "predictsim", sched.EASY(4).WithPeer(sched.PeerPredictsim), jobs, want{9: 0, 8: 100})
}

// A job submitted step-wise arrives now in every mode, also when a peer
// would move its line (an invalid line at 0 arrives at 1 when loaded).
func TestPeerSubmitArrivesNow(t *testing.T) {
	s, err := sched.New(sched.EASY(4).WithPeer(sched.PeerPyss))
	if err != nil {
		t.Fatal(err)
	}
	s.Submit(job(1, 0, -1, 2, 10)) // no run time: a 1-second job
	res, err := s.Finish()
	if err != nil {
		t.Fatal(err)
	}
	r := res.Records[0]
	if r.Start != 0 || r.Wait != 0 || r.RunTime != 1 || len(r.Changes()) != 1 || r.Changes()[0] != "no_run_time_1s_job" {
		t.Errorf("start %d wait %d run %d changes %v", r.Start, r.Wait, r.RunTime, r.Changes())
	}
	// Loaded, the same line arrives at 1, as the peers' max(submit, 1).
	res, err = sched.Run(context.Background(), sched.EASY(4).WithPeer(sched.PeerPyss), []swf.Job{job(1, 0, -1, 2, 10)})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Records[0]; r.Start != 1 || r.Wait != 0 || r.SWF().Submit != 1 {
		t.Errorf("loaded: start %d wait %d SWF submit %d", r.Start, r.Wait, r.SWF().Submit)
	}
}

// A line a peer would move to 1 cannot be loaded once the clock is past 1.
func TestPeerLoadAfterNow(t *testing.T) {
	s, err := sched.New(sched.EASY(4).WithPeer(sched.PeerPredictsim))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RunUntil(100); err != nil {
		t.Fatal(err)
	}
	if err := s.Load([]swf.Job{job(1, -1, 10, 2, 10)}); err == nil {
		t.Error("a line the peer submits at 1 loaded at 100")
	}
	if err := s.Load([]swf.Job{job(2, 200, 10, 2, 10)}); err != nil {
		t.Error(err)
	}
}
