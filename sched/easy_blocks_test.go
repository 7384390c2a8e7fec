package sched_test

import (
	"context"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// A holder that waits in the middle of the queue (Queue by prediction,
// Backfill by arrival: EASY's walk by blocks, fifo.blk) and is no longer
// the holder at a later pass backfills there: the walk that read its
// block while it held the reservation counted it in the block's bound.
// Left out, the block's bound at 10 would be job 19's alone, too large
// for the 9 free processors, and job 17 would wait.
func TestEASYWalkFormerHolderBackfills(t *testing.T) {
	jobs := []swf.Job{
		job(1, 0, 100, 10, 100), // until 100
		job(2, 0, 10, 5, 10),    // until 10: 5 processors free meanwhile
	}
	// Slots 2 to 15 (the first block): jobs too large and too long to
	// backfill, waiting while the queue's head stays in that block.
	for id := int64(3); id <= 16; id++ {
		jobs = append(jobs, job(id, 1, 10, 20, 10000))
	}
	jobs = append(jobs,
		job(17, 1, 50, 9, 50),     // slot 16: the holder at 1 (shortest), 9 free at 10 (shadow)
		job(18, 1, 5000, 1, 5000), // slot 17: backfills at 1 in the extra processor: the walk reads the block
		job(19, 10, 20, 10, 20),   // the holder at 10: too large for the 9 free then; shadow 100
	)
	for _, b := range []sched.Order{nil, arrivalOrder{}} {
		cfg := sched.EASY(20)
		cfg.Scheduler = sched.EASYScheduler{Queue: sched.ByPrediction, Backfill: b}
		res, err := sched.Run(context.Background(), cfg, jobs)
		if err != nil {
			t.Fatal(err)
		}
		if r := res.Records[16]; r.Job.ID != 17 || r.Start != 10 || !r.Backfilled {
			t.Errorf("backfill %v: job %d starts at %d (backfilled %v), want job 17 backfilled at 10", b, r.Job.ID, r.Start, r.Backfilled)
		}
	}
}
