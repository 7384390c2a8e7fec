package slurm

import (
	"context"
	"errors"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// simAt is a context done once p's simulated clock reaches at.
type simAt struct {
	context.Context
	p  *Policy
	at int64
}

func (c simAt) Err() error {
	if c.p.sim != nil && c.p.sim.Now() >= c.at {
		return context.Canceled
	}
	return nil
}

// TestCancelledStalePriority: a run cancelled at the end of a long quiet
// stretch returns the context's error, and its catch-up, which hears the
// context, stops after 65,536 calculations (cutEvery): the priorities
// are then those of a calculation long before the end. Priority said
// them as current (job 3's age factor was 0.9, not 1, here); it now
// reports no priority after a cut, and the right one otherwise.
func TestCancelledStalePriority(t *testing.T) {
	const end = int64(1) << 28 // 895k calculations of five minutes
	cuts := 0
	for _, site := range []Config{{WeightAge: 1000, WeightFairshare: 10000, ClassicFairshare: true},
		{WeightAge: 1000, WeightFairshare: 10000, SchedMinInterval: 2}} {
		jobs := []swf.Job{stillJob(1, 0, end, 8), stillJob(2, 1, 10, 8), stillJob(3, 2, 10, 8)}
		p, err := New(site, sched.Config{MachineSize: 8})
		if err != nil {
			t.Fatal(err)
		}
		var want int64
		var wantOK bool
		if _, err := p.Run(context.Background(), jobs, sched.Hooks{End: func(_ int64, j *swf.Job, _ bool) {
			if j.ID == 1 {
				want, wantOK = p.Priority(3)
			}
		}}); err != nil || !wantOK {
			t.Fatalf("%+v: %v, job 3 waiting at job 1's end: %v", site, err, wantOK)
		}
		q, err := New(site, sched.Config{MachineSize: 8})
		if err != nil {
			t.Fatal(err)
		}
		_, err = q.Run(simAt{context.Background(), q, end}, jobs)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%+v: %v, want the context's error", site, err)
		}
		if q.cut {
			cuts++
		}
		if got, ok := q.Priority(3); ok && got != want {
			t.Errorf("%+v: job 3's priority %d after the cancelled run (cut %v), want %d or none", site, got, q.cut, want)
		}
	}
	if cuts == 0 {
		t.Error("no catch-up was cut: the test shows nothing")
	}
}
