package sched_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// A long run stops when its context is cancelled, also after the last
// arrival, where most of a heavy queue's work can lie; the Sim goes on
// from there (here with Finish) to the schedule of an uninterrupted run.
func ExampleSim_FinishContext() {
	s, err := sched.New(sched.EASY(1))
	if err != nil {
		fmt.Println(err)
		return
	}
	jobs := make([]swf.Job, 10000) // all at 0, one second each: 10,000 instants after the last arrival
	for i := range jobs {
		jobs[i] = job(int64(i+1), 0, 1, 1, 1)
	}
	if err := s.Load(jobs); err != nil {
		fmt.Println(err)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // a Ctrl-C, a deadline
	if _, err := s.FinishContext(ctx); errors.Is(err, context.Canceled) {
		fmt.Printf("interrupted at t=%d\n", s.Now())
	}
	res, err := s.Finish()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d jobs, the last ending at t=%d\n", res.Summary.Jobs, res.Records[len(res.Records)-1].End)
	// Output:
	// interrupted at t=0
	// 10000 jobs, the last ending at t=10000
}
