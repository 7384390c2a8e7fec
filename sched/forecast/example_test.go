package forecast_test

import (
	"context"
	"fmt"

	"github.com/batchq/batchq/sched/forecast"
	"github.com/batchq/batchq/swf"
)

// A machine of 10 processors at t = 40 s: one job runs on all of them
// (estimate 100 s), three wait. EASY on the user estimates, as squeue
// --start would answer: A starts when the running job ends, B waits for A,
// and C backfills beside A.
func Example() {
	f, _ := forecast.New(forecast.Config{Estimates: true})
	s := &forecast.Snapshot{
		Now: 40, MachineSize: 10,
		Running: []swf.Job{{ID: 1, Submit: 0, Wait: 0, AllocProcs: 10, ReqTime: 100}},
		Waiting: []swf.Job{
			{ID: 2, Submit: 10, AllocProcs: 5, ReqTime: 50},  // A
			{ID: 3, Submit: 20, AllocProcs: 10, ReqTime: 30}, // B
			{ID: 4, Submit: 30, AllocProcs: 5, ReqTime: 20},  // C
		},
	}
	starts, _ := f.Forecast(context.Background(), s)
	fmt.Println("A, B, C start at", starts)
	// And if I submitted one processor for 10 s now?
	at, _ := f.WhatIf(context.Background(), s, swf.Job{AllocProcs: 1, ReqTime: 10})
	fmt.Println("a 1-processor, 10 s job would start at", at)
	// Output:
	// A, B, C start at [100 150 100]
	// a 1-processor, 10 s job would start at 120
}
