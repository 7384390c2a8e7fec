package sched_test

import (
	"context"
	"fmt"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

func job(id, submit, run, procs, est int64) swf.Job {
	return swf.Job{ID: id, Submit: submit, RunTime: run, AllocProcs: procs, ReqProcs: procs, ReqTime: est,
		Wait: -1, AvgCPUTime: -1, UsedMemory: -1, ReqMemory: -1, Status: -1, User: 1, Group: -1,
		Executable: -1, Queue: -1, Partition: -1, PrecedingJob: -1, ThinkTime: -1}
}

func ExampleRun() {
	jobs := []swf.Job{
		job(1, 0, 100, 8, 100), // fills the machine
		job(2, 10, 50, 4, 50),  // waits for job 1: reservation at 100
		job(3, 20, 30, 4, 80),  // would end at 100 by its estimate: backfilling needs a free processor
	}
	res, err := sched.Run(context.Background(), sched.EASY(8), jobs)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res.Records {
		fmt.Println(r.Job.ID, r.Start, r.End, r.Backfilled)
	}
	// Output:
	// 1 0 100 false
	// 2 100 150 false
	// 3 100 130 false
}
