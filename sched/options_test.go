package sched_test

import (
	"context"
	"errors"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// ShadowTies (A2), P = 4: job 1 (1 proc) and job 2 (2 procs) both end at
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
	got := sched.Summarize(res.Records, 10)
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
