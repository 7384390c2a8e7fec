package sched_test

import (
	"context"
	"errors"
	"runtime"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// Run with a context already done returns its error before loading the
// jobs, which a caller whose deadline has passed gets nothing from (Load
// of SDSC-BLUE's 243k jobs: 51 M instructions, callgrind, GC off; 7 to
// 175 ms of CPU with the collector, GOMAXPROCS=1).
// What Run allocates is the measure of the work done: without the check
// it builds every job's record (several MB for 100k jobs). Checked: fails
// without the check in Run.
func TestRunCancelledLoadsNothing(t *testing.T) {
	jobs := make([]swf.Job, 100000)
	for i := range jobs {
		jobs[i] = job(int64(i+1), int64(i), 10, 1, 10)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := sched.Run(ctx, sched.EASY(8), jobs)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, context.Canceled) || res != nil {
		t.Fatalf("Run on a cancelled context: %v, result %v; want context.Canceled and none", err, res != nil)
	}
	if b := after.TotalAlloc - before.TotalAlloc; b > 1<<20 {
		t.Errorf("Run on a cancelled context allocated %d bytes: it loaded the jobs", b)
	}
}
