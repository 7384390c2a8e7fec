package slurm_test

import (
	"context"
	"errors"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/slurm"
	"github.com/batchq/batchq/swf"
)

// TestHeldWaitsUnderSchedule: under a plain Schedule (sched.Run with the
// policy as its Scheduler) a job no partition can run (here a time limit
// above the partition's MaxTime) waits for ever: neither the main
// scheduler nor backfill starts it, though the machine is idle, and the
// jobs after it run. The loops over the queue pass it over by jobRec.out
// alone, so a held job not marked out at its creation would be backfilled.
func TestHeldWaitsUnderSchedule(t *testing.T) {
	site := slurm.Config{BackfillInterval: 10, Partitions: []slurm.Partition{{Name: "a", MaxTime: 50, Default: true}}}
	p, err := slurm.New(site, sched.Config{MachineSize: 10})
	if err != nil {
		t.Fatal(err)
	}
	jobs := []swf.Job{mkJob(1, 0, 1, 6, 100, 100), mkJob(2, 5, 1, 2, 10, 40), mkJob(3, 6, 1, 2, 10, 40)}
	res, err := sched.Run(context.Background(), sched.Config{MachineSize: 10, Scheduler: p}, jobs)
	if !errors.Is(err, sched.ErrStall) {
		t.Fatalf("err %v, want the stall of job 1 left waiting", err)
	}
	s := starts(res)
	if s[1] >= 0 || s[2] < 0 || s[3] < 0 {
		t.Errorf("jobs 1, 2, 3 start at %d, %d, %d; want job 1 (held) never, jobs 2 and 3 started", s[1], s[2], s[3])
	}
	if n := p.Unrunnable()["time limit above the partition's MaxTime"]; n != 1 {
		t.Errorf("Unrunnable counts %d jobs over MaxTime, want 1", n)
	}
}
