package sched

import "github.com/batchq/batchq/swf"

// RuntimePredictor gives the simulator the prediction p it schedules with
// (§2.3). Predict is called once at arrival; j.ReqTime holds the estimate e
// the simulator uses (missing estimates already replaced, S6), and j.RunTime
// must not be looked at except by oracle predictors. Terminated is called
// when a job ends normally (not when it is cancelled). The *swf.Job is
// valid during the call only. nil in Config.Predictor means the user's
// estimate (p = e); implementations in package sched/predict: Perfect,
// UserHistory, X2.
//
// A predictor that also has a method Propagates() bool returning true gets
// its waiting jobs of the same user re-predicted after each termination.
// A prediction above sanitize.MaxTime is taken as sanitize.MaxTime, and so
// is a Corrector's, so that no start + p wraps.
type RuntimePredictor interface {
	Predict(j *swf.Job, now int64) int64
	Terminated(j *swf.Job, now int64)
}

// userEstimate is the predictor of a nil Config.Predictor: p = e.
type userEstimate struct{}

func (userEstimate) Predict(j *swf.Job, _ int64) int64 { return j.ReqTime }
func (userEstimate) Terminated(*swf.Job, int64)        {}

// Corrector computes a new prediction for a running job that is still alive
// at start + p (§6.3). p is the expired prediction, e the correction target
// (the estimate, or 2e for X2+), n the number of corrections this job has
// had, k the number of those made with p ≥ e (post-estimate, S15). The result
// must exceed p; the simulator forces p+1 otherwise.
type Corrector interface {
	Correct(p, e int64, n, k int) int64
}

// EstimateCorrector is the thesis's default (§6.3): jump to e, then add
// 1 min, then 15·2^(k−2) min for the k-th post-estimate correction.
type EstimateCorrector struct{}

// Correct implements Corrector.
func (EstimateCorrector) Correct(p, e int64, _, k int) int64 {
	if p < e {
		return e
	}
	return p + postEstimate(k+1)
}

// postEstimate is the k-th (1-based) post-estimate increment in seconds.
func postEstimate(k int) int64 {
	if k <= 1 {
		return 60
	}
	if k > 40 {
		k = 40
	}
	return 15 * 60 << (k - 2)
}
