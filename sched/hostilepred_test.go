package sched_test

import (
	"context"
	"math"
	"testing"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// constPred is a user's predictor that answers v for every job.
type constPred struct{ v int64 }

func (c constPred) Predict(*swf.Job, int64) int64 { return c.v }
func (constPred) Terminated(*swf.Job, int64)      {}

// wildCorrector is a user's corrector that answers 2^63 − 1.
type wildCorrector struct{}

func (wildCorrector) Correct(p, e int64, n, k int) int64 { return math.MaxInt64 }

// A user's predictor may answer anything; a prediction of 2^63 − 1 made
// now + p wrap below every reservation, so job 3 (4 processors, more than
// the 2 left beside job 2's reservation) backfilled at 20 although it
// would end long after job 2 is due to start. Predictions are taken as at
// most sanitize.MaxTime.
func TestHugePredictionNoWrap(t *testing.T) {
	for _, name := range []string{"EASY", "Conservative"} {
		pr, _ := sched.LookupPreset(name)
		cfg := pr.New(10)
		cfg.Predictor = constPred{math.MaxInt64}
		res, err := sched.Run(context.Background(), cfg, []swf.Job{job(1, 0, 100, 6, 100), job(2, 10, 50, 8, 100), job(3, 20, 5, 4, 10)})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Records {
			if r.Job.ID == 3 && (r.Start != 150 || r.Backfilled) {
				t.Errorf("%s: job 3 started at %d (backfilled %v), want 150 after job 2", name, r.Start, r.Backfilled)
			}
			if r.Prediction != sanitize.MaxTime {
				t.Errorf("%s: job %d's prediction %d, want sanitize.MaxTime", name, r.Job.ID, r.Prediction)
			}
		}
	}
}

// A user's corrector answering 2^63 − 1, and a correction target whose
// product with the estimate would wrap, leave every time in range.
func TestHugeCorrectionNoWrap(t *testing.T) {
	for _, target := range []int64{0, 2, 1 << 30, math.MaxInt64} {
		cfg := sched.EASY(10)
		cfg.Predictor = constPred{1}
		cfg.Corrector = wildCorrector{}
		cfg.CorrectionTarget = target
		res, err := sched.Run(context.Background(), cfg, []swf.Job{job(1, 0, 100, 6, 100), job(2, 10, 50, 8, 100), job(3, 20, 5, 4, 10)})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Records {
			if r.Start < r.Job.Submit || r.End != r.Start+r.Job.RunTime || r.Final <= 0 || r.Final > sanitize.MaxTime {
				t.Errorf("target %d: job %d start %d end %d final %d", target, r.Job.ID, r.Start, r.End, r.Final)
			}
		}
	}
}
