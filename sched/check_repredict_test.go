package sched

import (
	"context"
	"testing"

	"github.com/batchq/batchq/sched/predict"
	"github.com/batchq/batchq/swf"
)

// TestCheckRepredictedWhileWaiting: a propagated re-prediction changes a
// waiting job's prediction and back, so that the record's prediction (the
// last propagated one) is its run time, yet its reservation moved later.
// Job 2 (user 3, 5 s, estimate 5) waits behind job 1 (user 3, estimate
// 10, killed at 10); job 4 (user 3, 1 s) ends at 1, so job 2 is
// predicted 1 s: reserved [10, 11), job 3 (2 processors, 1 s) moves to
// 11. Job 1's kill at 10 predicts job 2 at 5 s again: it no longer fits
// before job 3's reservation, which starts at 10 in its place; job 2
// starts at 11. That is conservative backfilling as it is (a longer
// prediction moves a reservation), on one pool and on nodes (the rapid
// case of TestConservativeNodesPlanRapid that found it: job 2 spread with
// memory only the first node has): Check must not call it a broken
// promise "though every prediction was exact".
func TestCheckRepredictedWhileWaiting(t *testing.T) {
	mk := func(id, run, est, size, user int64) swf.Job {
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.ReqTime, j.AllocProcs, j.ReqProcs, j.User = id, 0, run, est, size, size, user
		return j
	}
	for _, nodes := range []bool{false, true} {
		jobs := []swf.Job{mk(1, 20, 10, 1, 3), mk(2, 5, 5, 2, 3), mk(3, 1, 1, 2, 1), mk(4, 1, 1, 1, 3)}
		h, err := predict.NewUserHistory(predict.HistoryConfig{Propagate: true, Partial: true})
		if err != nil {
			t.Fatal(err)
		}
		cfg := Config{MachineSize: 2, Scheduler: conservativeScheduler{}, KillAtEstimate: true, Predictor: h, Corrector: EstimateCorrector{}}
		if nodes {
			cfg.MachineSize = 0
			cfg.Nodes = []swf.Node{{Name: "mem", Count: 1, Cores: 1, Memory: 1}, {Name: "gpu", Count: 1, Cores: 1, GPUs: 1, GPUModel: "A"}}
			cfg.KeepShares = true
			jobs[1].AllocProcs, jobs[1].ReqProcs, jobs[1].Demand = 1, 1, &swf.Demand{Memory: 1}
		}
		res, err := Run(context.Background(), cfg, jobs)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Records) != 4 {
			t.Fatalf("nodes %v: %d records, rejected %v", nodes, len(res.Records), res.Rejected)
		}
		if r := res.Records[1]; r.Start != 11 || r.FirstReservation != 10 || r.Prediction != r.RunTime || r.Final != r.RunTime || r.Corrections != 0 {
			t.Fatalf("nodes %v: job 2 %+v: not the case this test is about", nodes, r)
		}
		if err := res.Check(); err != nil {
			t.Errorf("nodes %v: %v", nodes, err)
		}
	}
}
