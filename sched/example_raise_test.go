package sched_test

import (
	"fmt"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// A log streamed into a Sim in pieces: job 3 has no estimate, so S6 gives
// it the log's largest, which only job 4, in the next piece, shows. The
// caller finds it ahead (here it knows the rest) and raises it before
// job 3 arrives, as a whole load would give it.
func ExampleSim_RaiseMaxEstimate() {
	first := []swf.Job{job(1, 0, 100, 8, 100), job(2, 10, 50, 4, 60), job(3, 20, 30, 4, -1)}
	rest := []swf.Job{job(4, 200, 10, 2, 5000)}
	s, err := sched.New(sched.EASY(8))
	if err != nil {
		panic(err)
	}
	if err := s.Load(first); err != nil {
		panic(err)
	}
	if err := s.RaiseMaxEstimate(rest[0].ReqTime); err != nil { // before job 3 arrives at 20
		panic(err)
	}
	if err := s.RunUntil(rest[0].Submit - 1); err != nil {
		panic(err)
	}
	if err := s.Load(rest); err != nil {
		panic(err)
	}
	res, err := s.Finish()
	if err != nil {
		panic(err)
	}
	for _, r := range res.Records {
		fmt.Printf("job %d: planned with %d s (estimate filled: %v)\n", r.Job.ID, r.Prediction, r.EstimateFilled)
	}
	// Output:
	// job 1: planned with 100 s (estimate filled: false)
	// job 2: planned with 60 s (estimate filled: false)
	// job 3: planned with 5000 s (estimate filled: true)
	// job 4: planned with 5000 s (estimate filled: false)
}
