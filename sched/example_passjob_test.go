package sched_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// favourite is a policy that keeps a job across passes: the first job
// that does not fit becomes its favourite, and no later job starts before
// it does (EASY would backfill them). Handles last one pass, so it keeps
// the ID and finds the job again with Pass.Job.
type favourite struct{ id int64 } // 0: none

func (*favourite) Name() string { return "favourite" }

func (f *favourite) Schedule(p *sched.Pass) {
	if j := p.Job(f.id); f.id != 0 && j != nil && j.Started() < 0 {
		if err := p.Start(j); errors.Is(err, sched.ErrNoFit) {
			return // the favourite still waits: nothing passes it
		}
	}
	f.id = 0
	for j := range p.Waiting() {
		if err := p.Start(j); errors.Is(err, sched.ErrNoFit) {
			f.id = j.ID()
			return
		}
	}
}

func ExamplePass_Job() {
	jobs := []swf.Job{
		job(1, 0, 100, 6, 100), // runs first
		job(2, 10, 50, 4, 50),  // does not fit: the favourite, until job 1 ends
		job(3, 20, 30, 2, 30),  // fits beside job 1 (EASY starts it at 20), but the favourite waits
	}
	res, err := sched.Run(context.Background(), sched.Config{MachineSize: 8, Scheduler: &favourite{}}, jobs)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res.Records {
		fmt.Println(r.Job.ID, r.Start)
	}
	fmt.Println("refused:", res.Refused)
	// Output:
	// 1 0
	// 2 100
	// 3 100
	// refused: 0
}
