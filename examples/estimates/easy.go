package main

import (
	"context"
	"errors"

	"github.com/batchq/batchq/swf"
)

// runEASY simulates EASY with the jobs' estimates (field 9).
func runEASY(ctx context.Context, jobs []swf.Job, procs int64) (wait, bsld float64, err error) {
	return 0, 0, errors.New("package sched is not available yet")
}
