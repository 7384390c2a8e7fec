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
