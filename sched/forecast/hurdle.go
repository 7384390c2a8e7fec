package forecast

import (
	"math"
)

// short is the wait up to which a forecast of "now" (the 60 s floor) is
// within a factor of 2.
const short = 2 * floor

// hurdle is the learned correction: a wait is short (≤ 2 min) with a
// probability p(x), else log-normal with mean μ(x) and the spread of the
// past residuals; the forecast is that mixture's median, which minimizes
// the expected |log| error and sits on the mode of a bimodal queue (most
// jobs start at once or wait hours) instead of between the two modes, where
// a mean of logs would put it and be within ×2 of neither.
type hurdle struct {
	imm    *linear // P(short) as a linear probability model
	wait   *linear // log(wait) of the jobs that waited longer
	s2, sw float64 // forgetting-weighted squared residuals of wait, and their weight
	forget float64
	seen   int
}

func newHurdle(forget float64) *hurdle {
	return &hurdle{imm: newLinear(nFeatures, forget), wait: newLinear(nFeatures, forget), forget: forget}
}

func (h *hurdle) add(x []float64, w int64) {
	h.seen++
	if w <= short {
		h.imm.add(x, 1, 1)
		return
	}
	h.imm.add(x, 0, 1)
	y := math.Log(float64(w))
	if h.wait.seen > 0 {
		r := y - h.wait.predict(x)
		h.s2 = h.s2*h.forget + r*r
		h.sw = h.sw*h.forget + 1
	}
	h.wait.add(x, y, 1)
}

// forecast is the answer at x, seconds: the value most likely to be
// within ×2 of the wait, or with median the mixture's median.
func (h *hurdle) forecast(x []float64, median bool) float64 {
	p := min(max(h.imm.predict(x), 0), 1)
	if h.wait.seen == 0 {
		return floor
	}
	mu := h.wait.predict(x)
	sd := 1.0
	if h.sw > 0 {
		sd = math.Sqrt(h.s2 / h.sw)
	}
	if !median {
		// "Now" is within ×2 with probability p; e^μ, the long waits'
		// median, with about (1−p)·P(|Z| ≤ ln 2 / sd).
		if p >= math.Erf(math.Ln2/(sd*math.Sqrt2))*(1-p) {
			return floor
		}
		return math.Max(math.Exp(mu), floor)
	}
	if p >= 0.5 {
		return floor
	}
	q := (0.5 - p) / (1 - p) // the median's quantile among the long waits
	return math.Max(math.Exp(mu+sd*math.Sqrt2*math.Erfinv(2*q-1)), floor)
}
