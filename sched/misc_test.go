package sched_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/predict"
	"github.com/batchq/batchq/swf"
)

func TestWriteSWF(t *testing.T) {
	res, err := sched.Run(context.Background(), sched.EASY(10), scenario1())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := res.WriteSWF(&buf, nil); err != nil {
		t.Fatal(err)
	}
	jobs, err := swf.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 12 {
		t.Fatalf("%d jobs written", len(jobs))
	}
	// job 3 waited from 10 to 100.
	if jobs[2].ID != 3 || jobs[2].Wait != 90 {
		t.Errorf("job %d wait %d, want 3 and 90", jobs[2].ID, jobs[2].Wait)
	}
}

func TestLoadFormula(t *testing.T) {
	// Two processors, window [0,100]: one job of 2 procs over [50,150]
	// contributes 2·50, one of 1 proc over [0,100] contributes 100.
	recs := []sched.Record{
		{Size: 2, Start: 50, End: 150},
		{Size: 1, Start: 0, End: 100},
	}
	if got := (&sched.Result{Records: recs}).Utilization(2, 0, 100); got != 1.0 {
		t.Errorf("load %v, want 1", got)
	}
}

func TestConfigValidate(t *testing.T) {
	if err := (sched.Config{}).Validate(); err == nil {
		t.Error("zero machine size accepted")
	}
	if err := (sched.Config{MachineSize: 4, Scheduler: sched.EASYScheduler{Queue: sched.ByLXFW + 97}}).Validate(); err == nil {
		t.Error("unknown order accepted")
	}
	if err := (sched.Config{MachineSize: 4, Peer: 7}).Validate(); err == nil {
		t.Error("unknown peer accepted")
	}
	for _, pr := range sched.Presets() {
		if err := pr.New(8).Validate(); err != nil {
			t.Errorf("%s: %v", pr.Name, err)
		}
	}
}

func TestRejectedAndFilled(t *testing.T) {
	jobs := []swf.Job{job(1, 0, 10, 1, 100), job(2, 0, -1, 1, 100), job(3, 0, 10, 99, 100), job(4, 1, 10, 1, -1)}
	res, err := sched.Run(context.Background(), sched.EASY(4), jobs)
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary.Rejected != 2 || len(res.Records) != 2 || res.Summary.Filled != 1 {
		t.Fatalf("rejected %d records %d filled %d", res.Summary.Rejected, len(res.Records), res.Summary.Filled)
	}
	if res.Records[1].Estimate != 100 {
		t.Errorf("missing estimate filled with %d, want the largest estimate 100", res.Records[1].Estimate)
	}
}

// Propagation: a waiting job's prediction follows its user's history.
func TestPropagation(t *testing.T) {
	h, _ := predict.NewUserHistory(predict.HistoryConfig{Window: 1, Propagate: true})
	cfg := sched.Config{MachineSize: 2, Predictor: h, Corrector: sched.EstimateCorrector{}}
	jobs := []swf.Job{
		job(1, 0, 50, 1, 1000), // history of user 1 once it ends at 50
		job(2, 0, 500, 2, 1000),
	}
	jobs[1].User = 2
	jobs = append(jobs, job(3, 10, 30, 2, 1000)) // waits behind job 2; re-predicted to 50 at t=50
	res, err := sched.Run(context.Background(), cfg, jobs)
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Records[2]; r.Prediction != 50 {
		t.Errorf("job 3 prediction %d, want 50 (propagated)", r.Prediction)
	}
}

// Estimate-safe backfilling (§2.4): job 3 would end by its prediction (p=r,
// PERFECT) before the shadow but not by its estimate, so it is not backfilled.
func TestEstimateSafeBackfill(t *testing.T) {
	jobs := []swf.Job{
		job(1, 0, 100, 4, 100), // runs 0–100, 4 of 6 procs
		job(2, 1, 50, 6, 50),   // head, reservation at 100
		job(3, 2, 20, 2, 500),  // ends at 22 by p = r, at 502 by e
	}
	cfg := sched.Config{MachineSize: 6, Predictor: predict.Perfect{}}
	check(t, "predictions", cfg, jobs, want{3: 2})
	cfg.Scheduler = sched.EASYScheduler{EstimateSafe: true}
	check(t, "estimate-safe", cfg, jobs, want{3: 150})
}

// EstimateFor: a job's own estimate; without one the largest seen so far,
// or its run time while no job had one (a log without estimates).
func TestEstimateFor(t *testing.T) {
	s, err := sched.New(sched.EASY(4))
	if err != nil {
		t.Fatal(err)
	}
	noEst, withEst := job(1, 0, 30, 1, -1), job(2, 0, 10, 1, 500)
	if got := s.EstimateFor(&withEst); got != 500 {
		t.Errorf("own estimate: %d, want 500", got)
	}
	if got := s.EstimateFor(&noEst); got != 30 {
		t.Errorf("no estimate seen yet: %d, want the run time 30", got)
	}
	if !s.Submit(withEst) {
		t.Fatal("job 2 refused")
	}
	if got := s.EstimateFor(&noEst); got != 500 {
		t.Errorf("after an estimate of 500: %d, want 500", got)
	}
}

// S6's largest estimate is of every line given to the simulation, a line
// rejected as not sane included (Config.MaxEstimate's doc): a job without
// an estimate gets a rejected line's larger one.
func TestMaxEstimateCountsRejectedLines(t *testing.T) {
	jobs := []swf.Job{
		job(1, 0, 100, 0, 5000), // no size: rejected, its estimate counts
		job(2, 1, 50, 2, 300),
		job(3, 2, 40, 2, -1), // no estimate: gets 5000, not 300
	}
	res, err := sched.Run(context.Background(), sched.EASY(4), jobs)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Records) != 2 {
		t.Fatalf("%d records, want 2 (job 1 rejected)", len(res.Records))
	}
	if got := res.Records[1].Estimate; got != 5000 {
		t.Errorf("job 3's estimate %d, want 5000 (the rejected line's)", got)
	}
}
