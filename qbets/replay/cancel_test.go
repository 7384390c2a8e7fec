package replay_test

import (
	"context"
	"errors"
	"testing"

	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

// cancelAt cancels its context at its n-th prediction and counts them all.
type cancelAt struct {
	n, asked int
	cancel   context.CancelFunc
}

func (c *cancelAt) Observe(replay.Event, *swf.Job) error { return nil }

func (c *cancelAt) Predict(*swf.Job, int64) (replay.Prediction, error) {
	if c.asked++; c.asked == c.n {
		c.cancel()
	}
	return replay.Prediction{OK: true, Point: 0}, nil
}

// TestCancelSoon: a cancelled context ends Run within 64 arrivals. A
// prediction may be a forward simulation of the whole queue, and
// examples/forecast went on for 4.6 s after a ^C on SDSC-SP2 while Run
// looked at its context every 1024 arrivals.
func TestCancelSoon(t *testing.T) {
	jobs := make([]swf.Job, 3000)
	for i := range jobs {
		jobs[i] = swf.Job{ID: int64(i + 1), Submit: int64(60 * i), Wait: 30, RunTime: 600, AllocProcs: 1}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := &cancelAt{n: 100, cancel: cancel}
	_, err := replay.Run(ctx, jobs, replay.Options{From: 0, To: len(jobs)}, p)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: %v, want context.Canceled", err)
	}
	if p.asked > p.n+64 {
		t.Errorf("%d predictions after the context was cancelled at the %d-th, want at most 64", p.asked-p.n, p.n)
	}
}
