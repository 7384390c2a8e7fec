package replay_test

import (
	"fmt"

	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/qbets/replay"
)

func Example() {
	// 200 jobs, one per minute, each waiting 30 s: once 59 waits are
	// visible every bound is 30 s, so every scored prediction is correct
	// with zero over-prediction.
	jobs := make([]replay.Job, 200)
	for i := range jobs {
		jobs[i] = replay.Job{Submit: int64(60 * i), Wait: 30, Nodes: 1}
	}
	r, _ := replay.Replay(jobs, replay.Config{
		Experiment:    replay.Plain,
		TrainFraction: 0.5,
		Comparators:   true,
		Predictor:     qbets.Config{},
	})
	fmt.Println(r.Scored, r.Correct, r.NoPrediction, r.RMS)
	for _, m := range replay.Methods {
		s := r.Score(m)
		fmt.Printf("%v %d/%d\n", m, s.Correct, s.Predicted)
	}
	// Output:
	// 100 100 0 0
	// BM 100/100
	// LogN 100/100
	// LogU 100/100
	// Weib 100/100
}
