// Package predict holds the runtime predictors of Tsafrir's thesis Ch. 4
// (§4.2, §4.6): the value a backfilling scheduler uses in place of the
// user's estimate in EASY+, EASY++ and their relatives (vanilla EASY's
// p = e is sched's default, a nil Config.Predictor). Perfect is the oracle
// p = r, UserHistory the
// user-history window of EASY++ (last two terminated jobs, averaged, capped
// at the estimate) with its §4.6 family of variants, and X2 doubles any
// other predictor.
//
// Each satisfies sched.RuntimePredictor:
//
//	Predict(j *swf.Job, now int64) int64  // at arrival; j.ReqTime is the estimate e the simulator uses
//	Terminated(j *swf.Job, now int64)     // when j ends; j.RunTime is its actual run time
//
// Package sched builds its presets (EASY++ and the others, sched.LookupPreset) from
// these; a user passes their own in sched.Config.Predictor. Predictors keep
// per-simulation state and are not safe for concurrent use: one per
// simulation.
package predict

import (
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/batchq/batchq/swf"
)

// Perfect predicts the actual runtime r (the PERFECT variants), which no real
// scheduler knows.
type Perfect struct{}

// Predict returns j.RunTime.
func (Perfect) Predict(j *swf.Job, _ int64) int64 { return j.RunTime }

// Terminated does nothing.
func (Perfect) Terminated(*swf.Job, int64) {}

// X2 doubles another predictor (the "X2" family of Tab 4.4, after Zhang et
// al.): X2{} predicts 2e (a nil P is the user's estimate), X2{history}
// predicts 2·(history prediction) and falls back to 2e like its inner
// predictor.
type X2 struct {
	// P is any sched.RuntimePredictor (spelt out so that this package need
	// not import sched, which builds its presets from it).
	P interface {
		Predict(j *swf.Job, now int64) int64
		Terminated(j *swf.Job, now int64)
	}
}

// Predict returns twice the inner prediction, held at ±(2^63 − 1) rather
// than wrapped: an estimate of 2^62 s or more is not doubled to a negative
// prediction.
func (x X2) Predict(j *swf.Job, now int64) int64 {
	p := j.ReqTime
	if x.P != nil {
		p = x.P.Predict(j, now)
	}
	switch {
	case p > math.MaxInt64/2:
		return math.MaxInt64
	case p < -math.MaxInt64/2:
		return -math.MaxInt64
	}
	return 2 * p
}

// Terminated forwards to the inner predictor.
func (x X2) Terminated(j *swf.Job, now int64) {
	if x.P != nil {
		x.P.Terminated(j, now)
	}
}

// validateWindow reports a window size outside 1..30 (the §4.6 tuning range is
// 1–30; larger windows are allowed up to 1000 for experiments).
func validateWindow(n int) error {
	if n < 0 || n > 1000 {
		return fmt.Errorf("predict: history window %d outside 1..1000", n)
	}
	return nil
}

// metricOf applies m to xs (non-empty).
func metricOf(m metric, xs []int64) int64 {
	switch m {
	case metricMedian:
		s := slices.Clone(xs)
		slices.Sort(s)
		k := len(s)
		if k%2 == 1 {
			return s[k/2]
		}
		return mean(s[k/2-1 : k/2+1])
	case metricMin:
		return slices.Min(xs)
	case metricMax:
		return slices.Max(xs)
	default:
		return mean(xs)
	}
}

// mean is sum(xs)/len(xs) rounded toward zero, as int64 division rounds,
// with the sum kept in 128 bits: two run times of 2^62 s average 2^62, not
// a negative number (xs non-empty).
func mean(xs []int64) int64 {
	var hi, lo uint64 // the sum, two's complement
	for _, x := range xs {
		var c uint64
		lo, c = bits.Add64(lo, uint64(x), 0)
		hi, _ = bits.Add64(hi, uint64(x>>63), c)
	}
	neg := int64(hi) < 0
	if neg {
		lo, hi = -lo, ^hi
		if lo == 0 {
			hi++
		}
	}
	// |sum| ≤ n·2^63, so hi < n and the quotient (at most 2^63) fits.
	q, _ := bits.Div64(hi, lo, uint64(len(xs)))
	if neg {
		return -int64(q)
	}
	return int64(q)
}

// mean2 is mean of a and b, without the loop when a + b does not wrap.
func mean2(a, b int64) int64 {
	if s := a + b; (a^s)&(b^s) >= 0 {
		return s / 2
	}
	return mean([]int64{a, b})
}
