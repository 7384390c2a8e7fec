package replay_test

import (
	"context"
	"fmt"

	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

// last predicts the last wait it has seen start, as its point estimate
// and as a bound: the smallest Predictor.
type last struct{ wait float64 }

func (l *last) Observe(ev replay.Event, j *swf.Job) error {
	if ev == replay.Start {
		l.wait = float64(j.Wait)
	}
	return nil
}

func (l *last) Predict(*swf.Job, int64) (replay.Prediction, error) {
	return replay.Prediction{OK: true, Point: l.wait, Lower: 0, Upper: l.wait}, nil
}

func Example() {
	// 200 jobs, one per minute, waiting 30 s then 90 s in turn.
	jobs := make([]swf.Job, 200)
	for i := range jobs {
		jobs[i] = swf.Job{ID: int64(i + 1), Submit: int64(60 * i), Wait: int64(30 + 60*(i%2)), RunTime: 600, AllocProcs: 1}
	}
	s, err := replay.Run(context.Background(), jobs, replay.Options{}, &last{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("scored %d, correct %.2f, AAE %.0f s, median bound/wait %.2f\n", s[0].Scored, s[0].Correctness(), s[0].AAE(), s[0].MedianRatio())

	// Full QBETS on the same queue: BM's bound is 90 s once it has a
	// history; the log-uniform quantile falls short of the 90 s waits.
	r, err := replay.Replay(jobs, replay.Config{Comparators: true})
	if err != nil {
		panic(err)
	}
	fmt.Printf("QBETS: %d of %d answered, correct %.2f, RMS %.0f s\n", r.Answered(), r.Scored, r.Correctness(), r.RMS())
	for m := range replay.Weibull + 1 {
		fmt.Printf("%v %.2f\n", m, r.Of(m).Correctness())
	}
	// Output:
	// scored 180, correct 0.50, AAE 30 s, median bound/wait 0.67
	// QBETS: 141 of 180 answered, correct 1.00, RMS 42 s
	// BM 1.00
	// LogN 1.00
	// LogU 0.50
	// Weib 1.00
}
