package sched_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// RunUntilContext and FinishContext stop soon after their context is
// cancelled, even when all the work lies after the last arrival (where
// Finish ran to the end, uninterruptible: a command's SIGTERM went
// unheard for minutes on a heavy conservative run), and the Sim goes on
// from where they stopped to the schedule an uninterrupted run gives. A
// cancellation by a hook is heard at its own instant, on every run (a
// flag set by another goroutine let the run go on for a varying number
// of instants).
func TestSimContextStops(t *testing.T) {
	const n = 20000 // one instant each, after the last arrival at 0
	jobs := make([]swf.Job, n)
	for i := range jobs {
		jobs[i] = job(int64(i+1), 0, 1, 1, 1)
	}
	whole, err := sched.Run(context.Background(), sched.EASY(1), jobs)
	if err != nil {
		t.Fatal(err)
	}

	for _, finish := range []bool{false, true} {
		s, err := sched.New(sched.EASY(1))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		started, at := 0, int64(-1)
		s.Observe(sched.Hooks{Start: func(now int64, _ *swf.Job, _ bool) {
			if started++; started == 100 {
				cancel()
				at = now
			}
		}})
		if err := s.Load(jobs); err != nil {
			t.Fatal(err)
		}
		if finish {
			res, err := s.FinishContext(ctx)
			if !errors.Is(err, context.Canceled) || res != nil {
				t.Fatalf("FinishContext after a cancellation: %v, result %v; want context.Canceled and none", err, res != nil)
			}
		} else if err := s.RunUntilContext(ctx, 1<<40); !errors.Is(err, context.Canceled) {
			t.Fatalf("RunUntilContext after a cancellation: %v; want context.Canceled", err)
		}
		if now := s.Now(); now != at {
			t.Errorf("finish=%v: stopped at %d, cancelled by a hook at %d: want the same instant", finish, now, at)
		}
		res, err := s.Finish()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(res.Records, whole.Records) || !reflect.DeepEqual(res.Summary, whole.Summary) {
			t.Errorf("finish=%v: the run continued after the cancellation differs from a whole run", finish)
		}
	}
}
