package coalloc

// Functions that only the tests call, moved out of the production files.

// atLeastOne is the probability that at least one of independent events of
// probabilities ps happens, 1 − Π(1 − p) (Eq. 6.1). It is 0 for none.
func atLeastOne(ps ...float64) float64 {
	fail := 1.0
	for _, p := range ps {
		fail *= 1 - p
	}
	return 1 - fail
}
