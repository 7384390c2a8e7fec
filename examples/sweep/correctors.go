package main

// The thesis's other correction schemes, "gradual" and "exponential"
// (Tsafrir's tuning space, decision S15 of the simulation register in
// docs/decisions.md), variants the sweep compares with
// sched.EstimateCorrector. Each caps the prediction at the correction
// target e until it is reached and then steps as EstimateCorrector does.

// gradualCorrector adds 1 min, 15 min, 30 min, 1 h, … from the first
// correction.
type gradualCorrector struct{}

// Correct implements sched.Corrector.
func (gradualCorrector) Correct(p, e int64, n, k int) int64 {
	if p < e {
		return min(e, p+postEstimate(n+1))
	}
	return p + postEstimate(k+1)
}

// exponentialCorrector multiplies p by 1.2.
type exponentialCorrector struct{}

// Correct implements sched.Corrector.
func (exponentialCorrector) Correct(p, e int64, _, k int) int64 {
	if p < e {
		return min(e, max(p+1, int64(float64(p)*1.2)))
	}
	return p + postEstimate(k+1)
}

// postEstimate is the k-th (1-based) post-estimate increment in seconds,
// EstimateCorrector's: 1 min, then 15·2^(k−2) min.
func postEstimate(k int) int64 {
	if k <= 1 {
		return 60
	}
	return 15 * 60 << (min(k, 40) - 2)
}
