package estmodel

import (
	"fmt"
	"slices"

	"github.com/batchq/batchq/swf"
)

// Runtime predictors of Tsafrir's thesis Ch. 4 (spec §6): the value a
// backfilling scheduler uses in place of the user's estimate. They satisfy
// sched.RuntimePredictor structurally:
//
//	Predict(j *swf.Job, now int64) int64  // at arrival; j.ReqTime is the estimate e (filled in by the simulator)
//	Terminated(j *swf.Job, now int64)     // when j ends; j.RunTime is its actual runtime
//
// Predictors are not safe for concurrent use: one per simulation.

// RuntimePredictor is the interface every predictor here implements; it is
// the same method set as sched.RuntimePredictor, declared again so that X2 can
// wrap any predictor without importing sched.
type RuntimePredictor interface {
	Predict(j *swf.Job, now int64) int64
	Terminated(j *swf.Job, now int64)
}

// UserEstimate predicts the user's estimate e (vanilla EASY).
type UserEstimate struct{}

// Predict returns j.ReqTime.
func (UserEstimate) Predict(j *swf.Job, _ int64) int64 { return j.ReqTime }

// Terminated does nothing: the estimate needs no history.
func (UserEstimate) Terminated(*swf.Job, int64) {}

// Perfect predicts the actual runtime r (the PERFECT variants), which no real
// scheduler knows.
type Perfect struct{}

// Predict returns j.RunTime.
func (Perfect) Predict(j *swf.Job, _ int64) int64 { return j.RunTime }

// Terminated does nothing.
func (Perfect) Terminated(*swf.Job, int64) {}

// X2 doubles another predictor (the "X2" family of Tab 4.4, after Zhang et
// al.): X2{UserEstimate{}} predicts 2e, X2{history} predicts 2·(history
// prediction) and falls back to 2e like its inner predictor. A nil P means
// UserEstimate.
type X2 struct{ P RuntimePredictor }

// Predict returns twice the inner prediction.
func (x X2) Predict(j *swf.Job, now int64) int64 {
	if x.P == nil {
		return 2 * j.ReqTime
	}
	return 2 * x.P.Predict(j, now)
}

// Terminated forwards to the inner predictor.
func (x X2) Terminated(j *swf.Job, now int64) {
	if x.P != nil {
		x.P.Terminated(j, now)
	}
}

// check that the predictors implement the interface.
var (
	_ RuntimePredictor = UserEstimate{}
	_ RuntimePredictor = Perfect{}
	_ RuntimePredictor = X2{}
	_ RuntimePredictor = (*UserHistory)(nil)
)

// validateWindow reports a window size outside 1..30 (the §4.6 tuning range is
// 1–30; larger windows are allowed up to 1000 for experiments).
func validateWindow(n int) error {
	if n < 0 || n > 1000 {
		return fmt.Errorf("estmodel: history window %d outside 1..1000", n)
	}
	return nil
}

// metricOf applies m to xs (non-empty).
func metricOf(m HistoryMetric, xs []int64) int64 {
	switch m {
	case MetricMedian:
		s := slices.Clone(xs)
		slices.Sort(s)
		k := len(s)
		if k%2 == 1 {
			return s[k/2]
		}
		return (s[k/2-1] + s[k/2]) / 2
	case MetricMin:
		return slices.Min(xs)
	case MetricMax:
		return slices.Max(xs)
	default:
		var sum int64
		for _, x := range xs {
			sum += x
		}
		return sum / int64(len(xs))
	}
}
