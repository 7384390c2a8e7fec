package sched_test

import (
	"fmt"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// A Sim runs step by step, for an agent that submits and cancels jobs as
// the simulation goes: Load the log's future arrivals, wake at a time with
// At (after that instant's terminations, expiries and arrivals, before its
// scheduling pass), advance with RunUntil, look with Queue, and Finish.
// Submit and Cancel may be called from At callbacks and Observer methods
// too; the instant's pass then sees them.
func ExampleSim() {
	s, err := sched.New(sched.EASY(8))
	if err != nil {
		fmt.Println(err)
		return
	}
	s.Observe(sched.Hooks{End: func(now int64, j *swf.Job, cancelled bool) {
		fmt.Printf("t=%d: job %d ends (cancelled %v)\n", now, j.ID, cancelled)
	}})
	if err := s.Load([]swf.Job{job(1, 0, 100, 8, 100), job(2, 10, 50, 4, 50)}); err != nil {
		fmt.Println(err)
		return
	}
	s.At(20, func(now int64) {
		s.Submit(job(3, 0, 30, 4, 30)) // arrives now, at 20, behind job 2
		s.Cancel(1)                    // ends the running job 1
	})
	if err := s.RunUntil(20); err != nil {
		fmt.Println(err)
		return
	}
	q := s.Queue()
	fmt.Printf("t=%d: %d waiting, %d running, %d free\n", q.Now, len(q.Waiting), len(q.Running), q.Free)
	res, err := s.Finish()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d jobs, %d cancelled\n", res.Summary.Jobs, res.Summary.Cancelled)
	// Output:
	// t=20: job 1 ends (cancelled true)
	// t=20: 0 waiting, 2 running, 0 free
	// t=50: job 3 ends (cancelled false)
	// t=70: job 2 ends (cancelled false)
	// 2 jobs, 1 cancelled
}
