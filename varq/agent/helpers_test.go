package agent

// tableForecaster answers from a table of probabilities indexed by the
// time left before the start, in steps; it stands for any forecaster.
type tableForecaster struct {
	step  int64
	probs []float64
}

func (f tableForecaster) ProbWithin(_ int, _, within int64) (float64, bool) {
	i := int((within - 1) / f.step)
	if i >= len(f.probs) {
		return f.probs[len(f.probs)-1], true
	}
	return f.probs[i], true
}

// shiftingForecaster gives probability hi to submissions made at least
// cut seconds before the start and lo to later ones; a test moves cut to
// mimic a change point in the queue.
type shiftingForecaster struct {
	cut    int64
	hi, lo float64
}

func (f *shiftingForecaster) ProbWithin(_ int, _, within int64) (float64, bool) {
	if within >= f.cut {
		return f.hi, true
	}
	return f.lo, true
}
