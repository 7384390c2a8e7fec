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

// Run with a context already done returns its error before it prepares
// and loads the jobs, and the Policy is not spent: a run with a live
// context then simulates. (A deadline that passes while the jobs are
// prepared and loaded is heard within a few thousand jobs and spends the
// Policy: TestRunDeadlineDuringLoad.) Checked: fails without the check in
// Run (several MB allocated, then "a Policy simulates once").
func TestRunCancelledLoadsNothing(t *testing.T) {
	jobs := make([]swf.Job, 100000)
	for i := range jobs {
		jobs[i] = mkJob(int64(i+1), int64(i), int64(i%50), 1, 10, 60)
	}
	p, err := slurm.New(slurm.Config{}, sched.Config{MachineSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := p.Run(ctx, jobs)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, context.Canceled) || res != nil {
		t.Fatalf("Run on a cancelled context: %v, result %v; want context.Canceled and none", err, res != nil)
	}
	b := after.TotalAlloc - before.TotalAlloc
	if b > 1<<20 {
		t.Errorf("Run on a cancelled context allocated %d bytes: it loaded the jobs", b)
	}
	if res, err := p.Run(context.Background(), jobs[:10]); err != nil || res.Summary.Jobs != 10 {
		t.Errorf("Run after a cancelled one: %v; want the 10 jobs run", err)
	}
}
