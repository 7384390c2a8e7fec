package sched

import (
	"slices"
	"testing"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

// TestLoadPiecesArrivals: a log loaded piece by piece, the simulation run
// up to each piece's last arrival in between (examples/simulate's
// streamed read), keeps its arrivals to come in a few arrays, not one a
// piece: the ones to come are moved to the front when the new piece fits
// behind them (a Grow of the tail alone made a new array at nearly every
// piece, garbage that a small log's run never collected). The schedule is
// the one a whole load gives.
func TestLoadPiecesArrivals(t *testing.T) {
	const pieces, per = 200, 100
	var jobs []swf.Job
	for i := range pieces * per {
		j := swf.NewJob()
		j.ID, j.Submit = int64(i+1), int64(i)
		j.RunTime, j.ReqTime, j.AllocProcs = int64(50+i%7*40), int64(400), int64(1+i%5)
		jobs = append(jobs, j)
	}
	cfg := EASY(16)
	whole, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := whole.Load(jobs); err != nil {
		t.Fatal(err)
	}
	want, err := whole.Finish()
	if err != nil {
		t.Fatal(err)
	}

	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	arrays := 0
	var last *arrival
	for p := range pieces {
		piece := jobs[p*per : (p+1)*per]
		if err := s.Load(piece); err != nil {
			t.Fatal(err)
		}
		if a := &s.arr[:1][0]; a != last {
			arrays, last = arrays+1, a
		}
		if err := s.RunUntil(piece[per-1].Submit - 1); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Finish()
	if err != nil {
		t.Fatal(err)
	}
	// One piece to come at a time, two at most: the array doubles from
	// one piece's room a couple of times, then holds.
	if arrays > 4 || cap(s.arr) > 4*per {
		t.Errorf("%d pieces of %d jobs: %d arrays of arrivals, the last of %d", pieces, per, arrays, cap(s.arr))
	}
	if !slices.EqualFunc(got.Records, want.Records, func(a, b Record) bool { a.Job, b.Job = nil, nil; return a == b }) {
		t.Errorf("loaded piece by piece, the records differ from a whole load's")
	}
}

// A line of a partial execution repeats its job's submit time where the
// log puts the run (a checkpointed job's runs logged among later jobs):
// loaded in a later piece, after the clock passed that time, it is
// rejected and counted (sanitize.PartialExecution), as a whole load
// rejects it; it failed the piece ("job 1 submitted at 0, before now
// 150"). A whole job submitted before now is still an error.
func TestLoadPiecesPartialLineBehindClock(t *testing.T) {
	mk := func(id, submit, run int64, status swf.Status) swf.Job {
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.AllocProcs, j.ReqProcs, j.ReqTime, j.Status = id, submit, run, 1, 1, 1000, status
		return j
	}
	for _, peer := range []Peer{PeerNone, PeerPyss, PeerPredictsim} {
		s, err := New(Config{MachineSize: 4, Peer: peer})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Load([]swf.Job{mk(1, 10, 300, swf.StatusCompleted), mk(2, 100, 50, swf.StatusCompleted)}); err != nil {
			t.Fatal(err)
		}
		if err := s.RunUntil(150); err != nil {
			t.Fatal(err)
		}
		if err := s.Load([]swf.Job{mk(1, 10, 100, swf.StatusPartial), mk(3, 200, 50, swf.StatusCompleted), mk(1, 10, 200, swf.StatusLastPart)}); err != nil {
			t.Fatalf("peer %v: %v", peer, err)
		}
		if err := s.Load([]swf.Job{mk(4, 120, 50, swf.StatusCompleted)}); err == nil {
			t.Errorf("peer %v: a job submitted at 120, before now 150, loaded", peer)
		}
		res, err := s.Finish()
		if err != nil {
			t.Fatal(err)
		}
		if got := cliReasons(res.Rejected); res.Rejected.Kept != 3 || len(got) != 1 || got[sanitize.PartialExecution] != 2 {
			t.Errorf("peer %v: %d kept, rejected %v; want 3 kept, 2 partial executions", peer, res.Rejected.Kept, got)
		}
	}
}

// cliReasons counts rep's rejections by reason.
func cliReasons(rep sanitize.Report) map[sanitize.Reason]int {
	by := map[sanitize.Reason]int{}
	for _, e := range rep.Excluded {
		by[e.Reason]++
	}
	return by
}
