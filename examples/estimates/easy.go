package main

import (
	"context"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// runEASY simulates EASY with the jobs' estimates (field 9) and returns the
// mean wait in minutes and the mean bounded slowdown.
func runEASY(ctx context.Context, jobs []swf.Job, procs int64) (wait, bsld float64, err error) {
	res, err := sched.Run(ctx, sched.EASY(procs), jobs)
	if err != nil {
		return 0, 0, err
	}
	return res.Summary.MeanWait / 60, res.Summary.MeanBSLD, nil
}
