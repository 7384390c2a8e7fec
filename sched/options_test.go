package sched_test

import (
	"context"
	"errors"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// ShadowTies (S2), P = 4: job 1 (1 proc) and job 2 (2 procs) both end at
// 100 by their estimates; 1 processor is free. Job 3 needs 2: shadow 100,
// fixed by job 1 alone with extra 1+1−2 = 0 by the thesis's rule; with
// ties job 2's processors add to extra (2). Job 4 (1 proc, e = 500) can
// backfill only by extra: at 6 with ties, at 100 (with job 3) without.
func TestShadowTies(t *testing.T) {
	jobs := []swf.Job{
		job(1, 0, 100, 1, 100), job(2, 0, 100, 2, 100),
		job(3, 5, 10, 2, 10), job(4, 6, 400, 1, 500),
	}
	cfg := sched.EASY(4)
	check(t, "thesis rule", cfg, jobs, want{3: 100, 4: 100})
	cfg.ShadowTies = true
	check(t, "ties", cfg, jobs, want{3: 100, 4: 6})
}

// KillAtEstimate ends a job at its estimate, counts it, and writes status 0.
func TestKillAtEstimate(t *testing.T) {
	jobs := []swf.Job{job(1, 0, 1000, 4, 100), job(2, 10, 50, 4, 50)}
	res := check(t, "logged run", sched.EASY(4), jobs, want{2: 1000})
	if res.Summary.Overran != 1 || res.Summary.Killed != 0 {
		t.Errorf("overran %d killed %d, want 1 and 0", res.Summary.Overran, res.Summary.Killed)
	}
	cfg := sched.EASY(4)
	cfg.KillAtEstimate = true
	res = check(t, "killed", cfg, jobs, want{2: 100})
	r := res.Records[0]
	if !r.Killed || r.End != 100 || r.RunTime != 100 || r.SWF().Status != swf.StatusFailed || r.Job.RunTime != 1000 || res.Summary.Killed != 1 {
		t.Errorf("killed job: %+v, summary killed %d", r, res.Summary.Killed)
	}
}

// With KillAtEstimate an oracle predicts the run that happens, the one cut
// at the estimate (P = 4): job 1 (2 procs, logged 1000 s, e = 100) is
// predicted to end at 100, job 2 (4 procs) reserves 100, and job 3 (2
// procs, 500 s) cannot backfill before it. Predicting the logged 1000 s
// would let job 3 backfill at 2 and delay job 2 to 502. A history
// predictor learns the cut run time, and a job cancelled while it waits
// is not counted as killed.
func TestKillAtEstimateOracle(t *testing.T) {
	jobs := []swf.Job{job(1, 0, 1000, 2, 100), job(2, 1, 10, 4, 10), job(3, 2, 500, 2, 500)}
	for preset, pred := range map[string]int64{"PERFECT++": 100, "X2_perf": 200, "SJF_perf": 100} {
		p, _ := sched.LookupPreset(preset)
		cfg := p.New(4)
		cfg.KillAtEstimate = true
		res := check(t, preset, cfg, jobs, want{1: 0, 2: 100, 3: 110})
		if r := res.Records[0]; !r.Killed || r.RunTime != 100 || r.Prediction != pred {
			t.Errorf("%s: job 1 %+v, want killed, run 100, predicted %d", preset, r, pred)
		}
	}
	var learnt []int64
	cfg := sched.EASY(4)
	cfg.KillAtEstimate = true
	cfg.Predictor = learner{&learnt}
	s, err := sched.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Load(append(jobs, job(4, 3, 900, 2, 300))); err != nil {
		t.Fatal(err)
	}
	s.At(50, func(int64) { s.Cancel(4) })
	res, err := s.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if len(learnt) != 3 || learnt[0] != 100 {
		t.Errorf("run times learnt %v, want 100 first", learnt)
	}
	if r := res.Records[3]; !r.Cancelled || r.Killed || res.Summary.Killed != 1 {
		t.Errorf("job 4 cancelled while waiting: %+v, %d killed", r, res.Summary.Killed)
	}
}

// learner predicts the estimate and records the run times it learns.
type learner struct{ runs *[]int64 }

func (l learner) Predict(j *swf.Job, _ int64) int64 { return j.ReqTime }
func (l learner) Terminated(j *swf.Job, _ int64)    { *l.runs = append(*l.runs, j.RunTime) }

// A cancelled context stops Run before the first event.
func TestRunCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := sched.Run(ctx, sched.EASY(4), []swf.Job{job(1, 0, 10, 1, 10)})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// Summarize over a result's records gives its summary (less the rejections).
func TestSummarizeRecords(t *testing.T) {
	res := check(t, "scenario1", sched.EASY(10), scenario1(), scenario1Starts)
	got := sched.SummarizeRecords(res.Records, 10)
	got.Rejected = res.Summary.Rejected
	if got != res.Summary {
		t.Errorf("Summarize = %+v, want %+v", got, res.Summary)
	}
}

// A Pass refuses to start a job that does not fit or does not wait.
func TestPassStartErrors(t *testing.T) {
	var errs []error
	greedy := schedFunc(func(p *sched.Pass) {
		for j := range p.Waiting() {
			errs = append(errs, p.Start(j))
		}
	})
	cfg := sched.EASY(4)
	cfg.Scheduler = greedy
	res, err := sched.Run(context.Background(), cfg, []swf.Job{job(1, 0, 10, 3, 10), job(2, 0, 10, 3, 10)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Records[1].Start != 10 {
		t.Errorf("job 2 started at %d, want 10", res.Records[1].Start)
	}
	failed := 0
	for _, e := range errs {
		if e != nil {
			failed++
		}
	}
	if failed == 0 {
		t.Error("starting a job that does not fit returned no error")
	}
}

type schedFunc func(p *sched.Pass)

func (f schedFunc) Schedule(p *sched.Pass) { f(p) }
