package coalloc

import "math"

// pIndep is the probability each of count independent reservations must
// reach for all of them to succeed with probability pAll: pAll^(1/count).
// pIndep(0.90, 2) = 0.9487 (printed "0.95" in Figure 6.1).
func pIndep(pAll float64, count int) float64 {
	if count <= 0 {
		return math.NaN()
	}
	return math.Pow(pAll, 1/float64(count))
}

// atLeastOne is the probability that at least one of independent events of
// probabilities ps happens, 1 − Π(1 − p) (Eq. 6.1). It is 0 for none.
func atLeastOne(ps ...float64) float64 {
	fail := 1.0
	for _, p := range ps {
		fail *= 1 - p
	}
	return 1 - fail
}
