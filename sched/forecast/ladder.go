package forecast

import "math"

// The ladder's thresholds: t_k = 60 s · 2^(k/ladderStep) for k = 0 …
// ladderStep·ladderDoublings, from a minute to about 11 days in steps of √2.
const (
	ladderStep      = 2
	ladderDoublings = 14
	nThresholds     = ladderStep*ladderDoublings + 1
)

// logErrWeight is λ in the answer's choice: P(within ×2) − λ·E|log10
// error|. Within ×2 alone would answer 2 min rather than "now" whenever a
// few more waits fall in 2–4 min, at a cost in log error of 0.3 on every
// job that starts at once; λ = 0.3 keeps the log error at or below the
// pure within-×2 choice's on every archive log while giving up at most a
// few tenths of a point within ×2 (package doc, Results).
const logErrWeight = 0.3

// ladder is the learned correction: a distributional regression of the
// wait. For every threshold t_k a linear probability model estimates
// P(wait ≤ t_k | x) (least squares on the indicator, all thresholds over
// one shared XᵀX); made monotone in k, the estimates are the wait's
// distribution function on a √2 grid. The answer is the grid point p
// that maximizes P(p/2 ≤ wait ≤ 2p) − λ·E|log10(p/wait)| (both floored at
// 60 s), or with median the distribution's median. Unlike a model of the
// mean of log wait, it puts its answer on a mode of the bimodal waits
// (most jobs start at once or wait hours) rather than between them, and
// it needs no assumption on the shape of either mode.
type ladder struct {
	m    *linear
	y, F [nThresholds]float64
	seen int
}

// ts are the thresholds t_k, seconds.
var ts = func() (t [nThresholds]float64) {
	for k := range t {
		t[k] = floor * math.Pow(2, float64(k)/ladderStep)
	}
	return t
}()

// reps are the representative waits of the bins: ≤ 60 s for bin 0, the
// geometric middle of (t_{k−1}, t_k] for bin k, and one step above the top
// threshold for the last bin (waits beyond it).
var reps = func() (r [nThresholds + 1]float64) {
	r[0] = floor
	for k := 1; k <= nThresholds; k++ {
		r[k] = floor * math.Pow(2, (float64(k)-0.5)/ladderStep)
	}
	return r
}()

// logErr[m][k] is |log10(t_m / reps[k])|, the log error of answering t_m
// to a wait in bin k.
var logErr = func() (e [nThresholds][nThresholds + 1]float64) {
	for m, t := range ts {
		for k, r := range reps {
			e[m][k] = math.Abs(math.Log10(t / r))
		}
	}
	return e
}()

// newLadder returns a ladder on the first d features.
func newLadder(forget float64, d int) *ladder {
	return &ladder{m: newLinear(d, nThresholds, forget)}
}

// reset empties the ladder: it answers as a new one on as many features.
func (l *ladder) reset() {
	l.seen = 0
	l.m.reset()
}

// add learns that the job with features x waited w seconds.
func (l *ladder) add(x []float64, w int64) {
	l.seen++
	for k, t := range ts {
		l.y[k] = 0
		if float64(w) <= t {
			l.y[k] = 1
		}
	}
	l.m.add(x, l.y[:])
}

// forecast is the answer at x, seconds.
func (l *ladder) forecast(x []float64, median bool) float64 {
	l.fill(x)
	return decide(&l.F, median)
}

// fill sets l.F to the monotone distribution function at x.
func (l *ladder) fill(x []float64) {
	l.m.predict(x, l.F[:])
	prev := 0.0
	for k, v := range l.F {
		l.F[k] = min(max(v, prev), 1)
		prev = l.F[k]
	}
}

// cdfOf is P(wait ≤ t_k) from F, 0 below the grid and 1 above it.
func cdfOf(F *[nThresholds]float64, k int) float64 {
	switch {
	case k < 0:
		return 0
	case k >= nThresholds:
		return 1
	}
	return F[k]
}

// decide is the answer for the distribution function F.
func decide(F *[nThresholds]float64, median bool) float64 {
	if median {
		for k, v := range F {
			if v >= 0.5 {
				return ts[k]
			}
		}
		return ts[nThresholds-1]
	}
	var pk [nThresholds + 1]float64 // P(wait in bin k)
	for k := range pk {
		pk[k] = cdfOf(F, k) - cdfOf(F, k-1)
	}
	best, bestS := ts[0], math.Inf(-1)
	for m, p := range ts {
		// Within ×2 of p: waits in [t_{m−step}, t_{m+step}]; every wait
		// under a minute counts as 60 s.
		in := cdfOf(F, m+ladderStep)
		if m-ladderStep > 0 {
			in -= cdfOf(F, m-ladderStep-1)
		}
		e := 0.0
		for k, q := range pk {
			e += q * logErr[m][k]
		}
		if s := in - logErrWeight*e; s > bestS {
			best, bestS = p, s
		}
	}
	return best
}
