package conformal

import (
	"context"
	"testing"

	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

// A Wrapper keeps a question until its job starts, as sched/forecast's
// Online does (TestPendingBounded there). A job cancelled while it waited
// (SWF status 5, wait −1) never starts, but never reaches it either:
// replay.Queues skips it and replay.Run refuses a wait below 0. So the
// questions kept are at most the jobs waiting: here 20,000 jobs, 3 of 4
// cancelled while pending, the others arriving every 2 min and waiting an
// hour (30 waiting at once), asked at submission and hourly snapshots.
func TestWrapperPendingBounded(t *testing.T) {
	var jobs []swf.Job
	for i := range 20000 {
		j := swf.Job{ID: int64(i + 1), Submit: int64(30 * i), Wait: 3600, RunTime: 600, AllocProcs: 1 + int64(i%16)}
		if i%4 != 0 {
			j.Wait, j.RunTime, j.Status = -1, -1, 5
		}
		jobs = append(jobs, j)
	}
	byQueue, skipped := replay.Queues(jobs)
	all, err := replay.All(byQueue)
	if err != nil || skipped != 15000 {
		t.Fatalf("skipped %d (want 15,000), %v", skipped, err)
	}
	c, err := NewCalibrator(Config{})
	if err != nil {
		t.Fatal(err)
	}
	w := Wrap(constant(600), c, nil)
	most := 0
	opt := replay.Options{Train: 0.01, Snapshot: 3600, BeforeArrival: func(int, *swf.Job) error {
		most = max(most, len(w.pending))
		return nil
	}}
	if _, err := replay.Run(context.Background(), all, opt, w); err != nil {
		t.Fatal(err)
	}
	t.Logf("at most %d questions pending", most)
	if most == 0 || most > 30 {
		t.Errorf("up to %d questions pending, want 1 to 30", most)
	}
}
