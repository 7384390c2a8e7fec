package forecast

import (
	"context"
	"testing"

	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

// Online keeps a question (pending) until its job starts. A job that
// never starts, cancelled while it waited (SWF status 5, wait −1), never
// reaches it: replay.Run refuses a wait below 0 and replay.Queues, which
// examples/forecast feeds it through, skips such jobs (counted). So
// pending holds only jobs that are waiting (a subset of Online's waiting
// list), and a long log that is mostly cancelled-while-pending jobs
// leaves it no larger than the queue: here 20,000 jobs, 3 of 4 cancelled
// while pending, one question each at submission and at every hourly
// snapshot; a started job's entry goes at its start.
func TestPendingBounded(t *testing.T) {
	var jobs []swf.Job
	for i := range 20000 {
		j := job(int64(i+1), int64(30*i), 3600, 600, 1+int64(i%16), 900, int64(i%50))
		if i%4 != 0 {
			j.Wait, j.RunTime, j.Status = -1, -1, 5
		}
		jobs = append(jobs, j)
	}
	byQueue, skipped := replay.Queues(jobs)
	if skipped != 15000 {
		t.Fatalf("Queues skipped %d jobs, want the 15,000 cancelled while pending", skipped)
	}
	all, err := replay.All(byQueue)
	if err != nil {
		t.Fatal(err)
	}
	o, err := NewOnline(Config{}, 64)
	if err != nil {
		t.Fatal(err)
	}
	most := 0
	check := func(int, *swf.Job) error {
		most = max(most, len(o.pending))
		if len(o.pending) > len(o.waiting) {
			t.Fatalf("%d questions pending, %d jobs waiting", len(o.pending), len(o.waiting))
		}
		for id := range o.pending {
			if !o.isWaiting(id) {
				t.Fatalf("a question of job %d, which is not waiting", id)
			}
		}
		return nil
	}
	if _, err := replay.Run(context.Background(), all, replay.Options{Train: 0.01, Snapshot: 3600, BeforeArrival: check}, o); err != nil {
		t.Fatal(err)
	}
	t.Logf("at most %d questions pending", most)
	// (A kept job arrives every 2 min and waits an hour: 30 wait at once.)
	if most == 0 || most > 30 {
		t.Errorf("up to %d questions pending, want 1 to 30", most)
	}
}

func (o *Online) isWaiting(id int64) bool {
	for i := range o.waiting {
		if o.waiting[i].ID == id {
			return true
		}
	}
	return false
}
