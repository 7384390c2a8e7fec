package sched_test

import (
	"context"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// TestRaiseMaxEstimate: LANL-CM5 (its first job without an estimate is
// its 61st line, when the largest estimate read is 21,600 s of the log's
// 30,000) loaded in pieces of 1,000, with the log's largest estimate
// raised before the piece that holds that job, gives the whole load's
// Summary; without the raise it does not (the jobs without an estimate
// get a smaller one), so the test sees the raise.
func TestRaiseMaxEstimate(t *testing.T) {
	_, jobs, err := swf.ReadFile(tracetest.Path(t, tracetest.LANLCM5))
	if err != nil {
		t.Fatal(err)
	}
	var largest int64
	first := -1
	for i, j := range jobs {
		if e := j.ReqTime; e <= sanitize.MaxTime {
			largest = max(largest, e)
		}
		if j.ReqTime <= 0 && first < 0 {
			first = i
		}
	}
	cfg := sched.EASY(1024)
	full, err := sched.Run(context.Background(), cfg, jobs)
	if err != nil {
		t.Fatal(err)
	}
	run := func(raise bool) *sched.Result {
		cfg := sched.EASY(1024)
		cfg.SummaryOnly = true
		s, err := sched.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		const n = 1000
		for i := 0; i < len(jobs); i += n {
			if raise && first >= i && first < i+n {
				if err := s.RaiseMaxEstimate(largest); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Load(append([]swf.Job(nil), jobs[i:min(i+n, len(jobs))]...)); err != nil {
				t.Fatal(err)
			}
			if i+n < len(jobs) {
				if err := s.RunUntil(jobs[i+n].Submit - 1); err != nil {
					t.Fatal(err)
				}
			}
		}
		res, err := s.Finish()
		if err != nil {
			t.Fatal(err)
		}
		for i := range res.Rejected.Excluded { // (Index is the line's in its Load)
			res.Rejected.Excluded[i].Index = full.Rejected.Excluded[i].Index
		}
		return res
	}
	sameFolded(t, "LANL-CM5 in pieces, raised", full, run(true))
	if without := run(false); without.Summary == full.Summary {
		t.Errorf("LANL-CM5 in pieces without the raise gives the whole load's Summary: the test does not see the raise")
	}
}

// TestRaiseMaxEstimateRules: a raise after a job without an estimate
// arrived is an error unless it changes nothing; one above
// sanitize.MaxTime, or with Config.MaxEstimate set, is ignored.
func TestRaiseMaxEstimateRules(t *testing.T) {
	job := func(id, submit, est int64) swf.Job {
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.AllocProcs, j.ReqTime = id, submit, 10, 1, est
		return j
	}
	s, err := sched.New(sched.EASY(4))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RaiseMaxEstimate(sanitize.MaxTime + 1); err != nil {
		t.Fatal(err)
	}
	probe := job(99, 0, -1)
	if got := s.EstimateFor(&probe); got != 10 {
		t.Errorf("a raise above sanitize.MaxTime: estimate %d, want the run time 10", got)
	}
	if err := s.RaiseMaxEstimate(500); err != nil {
		t.Fatal(err)
	}
	if err := s.Load([]swf.Job{job(1, 0, 100), job(2, 5, -1)}); err != nil {
		t.Fatal(err)
	}
	if got := s.EstimateFor(&probe); got != 500 {
		t.Errorf("raised to 500 over a loaded 100: estimate %d", got)
	}
	if err := s.RunUntil(10); err != nil {
		t.Fatal(err)
	}
	if err := s.RaiseMaxEstimate(400); err != nil {
		t.Errorf("a raise below the estimate given, after job 2 arrived: %v", err)
	}
	if err := s.RaiseMaxEstimate(600); err == nil {
		t.Errorf("a raise after job 2 arrived with 500: no error")
	}
	cfg := sched.EASY(4)
	cfg.MaxEstimate = 50
	if s, err = sched.New(cfg); err != nil {
		t.Fatal(err)
	}
	if err := s.RaiseMaxEstimate(500); err != nil {
		t.Fatal(err)
	}
	if got := s.EstimateFor(&probe); got != 50 {
		t.Errorf("Config.MaxEstimate 50, raised to 500: estimate %d", got)
	}
}
