package slurm_test

import (
	"context"
	"errors"
	"runtime"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/slurm"
	"github.com/batchq/batchq/swf"
)

// lateCtx is a context whose deadline passes at its after+1-th look: at
// a point of the preparation or load the test names, whatever the
// machine's speed.
type lateCtx struct {
	context.Context
	looks, after int
}

func (c *lateCtx) Err() error {
	c.looks++
	if c.looks > c.after {
		return context.DeadlineExceeded
	}
	return nil
}

// A deadline that passes while Run prepares or loads the jobs is heard
// within a few thousand jobs, and the Policy says it is spent. The jobs
// have no number, so that each one loaded is a copy (sched's made-up
// IDs): the allocations count the jobs loaded. Checked: fails without
// LoadContext in Run (100k allocations: the whole load).
func TestRunDeadlineDuringLoad(t *testing.T) {
	jobs := make([]swf.Job, 100000)
	for i := range jobs {
		jobs[i] = mkJob(-1, int64(i), int64(i%50), 1, 10, 60)
	}
	const every = 4096 // run.go's loadEvery
	for _, tc := range []struct {
		name  string
		after int
	}{
		{"preparing", 1},                     // Run's first look, then done at the association loop's first
		{"loading", 1 + len(jobs)/every + 1}, // and its every look, and the load's first: done after 4096 jobs loaded
	} {
		p, err := slurm.New(slurm.Config{}, sched.Config{MachineSize: 8})
		if err != nil {
			t.Fatal(err)
		}
		ctx := &lateCtx{Context: context.Background(), after: tc.after}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		res, err := p.Run(ctx, jobs)
		runtime.ReadMemStats(&after)
		if !errors.Is(err, context.DeadlineExceeded) || res != nil {
			t.Fatalf("%s: Run with a deadline during the load: %v, result %v; want DeadlineExceeded and none", tc.name, err, res != nil)
		}
		if n := after.Mallocs - before.Mallocs; n > 2*every {
			t.Errorf("%s: Run with a deadline during the load made %d allocations: it loaded about that many of the %d jobs", tc.name, n, len(jobs))
		}
		if _, err := p.Run(context.Background(), jobs[:10]); err == nil || errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: Run after a stopped one: %v; want the Policy spent", tc.name, err)
		}
	}
}
