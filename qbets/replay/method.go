package replay

import (
	"math"

	"github.com/batchq/batchq/internal/ordstat"
	"github.com/batchq/batchq/internal/parametric"
	"github.com/batchq/batchq/internal/runlen"
	"github.com/batchq/batchq/qbets"
)

// Method is a quantile predictor the evaluator scores (thesis §4.2.1): the
// Binomial Method or one of the three parametric comparators of spec §2.2,
// in table order (for m := range Weibull + 1 visits them all).
type Method int

const (
	BM         Method = iota // binomial method (order statistic, §2.1)
	LogNormal                // log-normal MLE, upper level-C bound (non-central t factor)
	LogUniform               // log-uniform MLE, model quantile
	Weibull                  // Weibull MLE, model quantile
	numMethods
)

func (m Method) String() string {
	switch m {
	case BM:
		return "BM"
	case LogNormal:
		return "LogN"
	case LogUniform:
		return "LogU"
	case Weibull:
		return "Weib"
	}
	return "Method(?)"
}

// weibullRefit is the relative history growth that triggers a Weibull
// refit. An exact refit costs O(n) Newton sums per prediction, O(n²) over a
// 100k-job history; refitting when the history has grown by 1% (or after a
// trim) changes a fitted quantile by far less than its sampling error and
// keeps the replay O(n log n). Brevik et al. refit every 300 s epoch for
// the same reason and found the effect "minimal".
const weibullRefit = 0.01

// hist is one method's history of one cluster: waits in release order
// since the last trim, the sufficient statistics of the method, and the
// change-point detector of §2.3 driven by the method's own bound (thesis
// §4.3.5: each predictor's own misses trigger its trimming).
type hist struct {
	m      Method
	env    *env
	recent []int64
	logs   []float64 // ln(1+w) of recent, for the Weibull fit and the autocorrelation
	run    int
	trims  int

	set        ordstat.Set // BM
	sy, syy    float64     // LogNormal: Σ ln(w+1), Σ ln²(w+1)
	lo, hi     int64       // LogUniform, and the degenerate case of the fits
	k, lam     float64     // Weibull fit
	fitN       int         // history size at the last Weibull fit; 0 = none
	fitOK      bool
	boundN     int // BM cache
	boundV     int64
	boundValid bool
}

// env is what the histories of one replay share.
type env struct {
	q, c  float64
	nMin  int
	trim  bool
	tf    parametric.ToleranceFactors
	upIdx []int // UpperIndex by n, 0 = not yet computed, −1 = none
}

func newEnv(q, c float64, trim bool) *env {
	return &env{q: q, c: c, nMin: qbets.Level{Quantile: q, Confidence: c}.MinHistory(), trim: trim, tf: parametric.ToleranceFactors{Q: q, C: c}}
}

func (e *env) upperIndex(n int) int {
	for len(e.upIdx) <= n {
		e.upIdx = append(e.upIdx, 0)
	}
	if e.upIdx[n] == 0 {
		i, ok := qbets.Level{Quantile: e.q, Confidence: e.c}.UpperIndex(n)
		if !ok {
			i = -1
		}
		e.upIdx[n] = i
	}
	return e.upIdx[n]
}

func newHist(m Method, e *env) *hist { return &hist{m: m, env: e} }

// bound is the method's prediction from this history; ok is false below
// the minimum history n_min (the same gate for every method, Q22).
func (h *hist) bound() (float64, bool) {
	n := len(h.recent)
	if n < h.env.nMin {
		return 0, false
	}
	if h.lo == h.hi { // every wait equal: every fit degenerates to that value
		return float64(h.hi), true
	}
	switch h.m {
	case BM:
		if h.boundN != n {
			h.boundN = n
			h.boundV, h.boundValid = 0, false
			if i := h.env.upperIndex(n); i > 0 {
				h.boundV, h.boundValid = h.set.Kth(i)
			}
		}
		return float64(h.boundV), h.boundValid
	case LogNormal:
		nf := float64(n)
		m := h.sy / nf
		s := math.Sqrt(max(h.syy-nf*m*m, 0) / (nf - 1))
		k, ok := h.env.tf.K(n)
		return parametric.LogNormalBoundK(k, m, s), ok
	case LogUniform:
		return parametric.LogUniformQuantile(h.lo, h.hi, h.env.q), true
	case Weibull:
		if h.fitN == 0 || float64(n-h.fitN) >= weibullRefit*float64(h.fitN) {
			h.k, h.lam, h.fitOK = parametric.WeibullFitLog(h.logs, h.k)
			h.fitN = n
		}
		if !h.fitOK {
			return 0, false
		}
		return parametric.WeibullQuantile(h.k, h.lam, h.env.q), true
	}
	return 0, false
}

// add records a released wait; it reports whether the wait triggered a
// change point (the history is then the last n_min waits).
func (h *hist) add(w int64) bool {
	if h.env.trim {
		if b, ok := h.bound(); ok && float64(w) > b {
			h.run++
		} else {
			h.run = 0
		}
	}
	h.recent = append(h.recent, w)
	h.logs = append(h.logs, math.Log1p(float64(w)))
	h.insert(w)
	if h.env.trim && h.run >= 3 && h.run >= runlen.RunThreshold(runlen.Lag1(h.logs)) {
		h.trims++
		h.run = 0
		h.recent = append([]int64(nil), h.recent[len(h.recent)-h.env.nMin:]...)
		h.logs = append([]float64(nil), h.logs[len(h.logs)-h.env.nMin:]...)
		h.rebuild()
		return true
	}
	return false
}

func (h *hist) insert(w int64) {
	if len(h.recent) == 1 {
		h.lo, h.hi = w, w
	}
	h.lo, h.hi = min(h.lo, w), max(h.hi, w)
	switch h.m {
	case BM:
		h.set.Insert(w)
	case LogNormal:
		y := math.Log1p(float64(w))
		h.sy += y
		h.syy += y * y
	}
}

// rebuild recomputes the statistics from recent after a trim.
func (h *hist) rebuild() {
	keep := h.recent
	*h = hist{m: h.m, env: h.env, recent: keep, logs: h.logs, trims: h.trims}
	for i, w := range keep {
		h.recent = keep[:i+1]
		h.insert(w)
	}
}
