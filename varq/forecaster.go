package varq

// Forecaster answers the inverted QBETS query (§2.7): the probability, in
// [0, 1], that a job of nodes processors requesting walltime seconds,
// submitted now, starts within the next within seconds. ok is false when
// the forecaster has nothing to answer from (no history for the job's
// shape, or QBETS's availability inference judges that the machine may be
// down); *qbets.Predictor satisfies Forecaster as it is.
//
// A planner reads ok = false as probability 0: no promise can be made
// without a forecast, so a new request meeting it is refused
// (NOT_POSSIBLE). A Replanner holding an accepted plan treats a spell in
// which every candidate submission gets 0 as the forecaster's silence and
// keeps its plan (see Replanner).
//
// VARQ asks about future submissions and relies on the answer changing
// slowly (thesis Ch. 5, spec §3). Implementations are queried many times per
// plan (1440 times for a 12 h reservation at 30 s steps), so they should
// be cheap.
type Forecaster interface {
	ProbWithin(nodes int, walltime, within int64) (prob float64, ok bool)
}

// ForecasterFunc adapts a plain function to Forecaster. It is the adapter
// for predictors whose method has another shape.
type ForecasterFunc func(nodes int, walltime, within int64) (float64, bool)

// ProbWithin calls f.
func (f ForecasterFunc) ProbWithin(nodes int, walltime, within int64) (float64, bool) {
	return f(nodes, walltime, within)
}
