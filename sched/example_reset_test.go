package sched_test

import (
	"fmt"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// A sweep runs one log under several settings, one simulation after
// another: Reset makes the Sim a new one of the next setting, keeping the
// memory of the last one's jobs, so the runs after the first allocate
// little. The last run's Result must be read before the Reset.
func ExampleSim_Reset() {
	jobs := []swf.Job{job(1, 0, 100, 8, 100), job(2, 10, 50, 4, 50), job(3, 20, 30, 4, 30)}
	var s *sched.Sim
	for _, size := range []int64{8, 16} {
		var err error
		if s == nil {
			s, err = sched.New(sched.EASY(size))
		} else {
			err = s.Reset(sched.EASY(size))
		}
		if err == nil {
			err = s.Load(jobs)
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		res, err := s.Finish()
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%d processors, waits:", size)
		for _, r := range res.Records {
			fmt.Printf(" %d", r.Wait)
		}
		fmt.Println()
	}
	// Output:
	// 8 processors, waits: 0 90 80
	// 16 processors, waits: 0 0 0
}
