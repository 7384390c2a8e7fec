package varq

// Forecaster answers the inverted QBETS query (§2.7): the probability, in
// [0, 1], that a job of nodes processors requesting walltime seconds,
// submitted now, starts within the next within seconds. VARQ asks it about
// future submissions and relies on the answer changing slowly (thesis
// L711–727). Implementations are queried many times per plan (1440 times
// for a 12 h reservation at 30 s steps), so they should be cheap.
type Forecaster interface {
	ProbWithin(nodes int, walltime, within int64) float64
}

// ForecasterFunc adapts a plain function to Forecaster. It is the adapter
// for predictors whose method has another shape.
type ForecasterFunc func(nodes int, walltime, within int64) float64

// ProbWithin calls f.
func (f ForecasterFunc) ProbWithin(nodes int, walltime, within int64) float64 {
	return f(nodes, walltime, within)
}
