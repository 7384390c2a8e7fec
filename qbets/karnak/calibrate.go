package karnak

import (
	"math"
	"slices"
)

// calWindow is the forecast's interval calibration: split conformal
// prediction (Vovk et al.; the rank rule of qbets/conformal) on the
// log-ratio residuals r = ln(max(wait, fcFloor) / max(forecast, fcFloor))
// of the last n started jobs whose forecast was recorded, one window for
// the whole system, ranked per class of forecast (fcClass). An interval
// of level 1−α around a forecast p of class c is [p·e^{q_lo}, p·e^{q_hi}],
// q_lo the ⌊(m+1)α/2⌋-th and q_hi the ⌈(m+1)(1−α/2)⌉-th smallest of the
// class's m residuals: at 90%, [0, +Inf) until m ≥ 19 (the upper end is
// finite only when m ≥ ⌈0.95(m+1)⌉, the lower one above 0 only when
// ⌊0.05(m+1)⌋ ≥ 1 and the smallest residual puts it above the floor).
//
// It is not qbets/conformal's Calibrator because its window is shared by
// the classes (the store keeps the events of the last n residuals, and a
// class of rare forecasts must not hold older ones), and because an
// interval also counts residuals that are not in the window: the overdue
// jobs' (forecaster.overdue).
type calWindow struct {
	ring   []calResidual // the window, in start order (a ring)
	next   int
	sorted [fcClasses][]float64 // the window's residuals per class, sorted
	seqs   seqRing              // per residual, the first stored event it needs
}

type calResidual struct {
	class int64
	r     float64
}

func newCalWindow(n int) *calWindow {
	return &calWindow{ring: make([]calResidual, 0, n), seqs: newSeqRing(n)}
}

// fcResidual is the log-ratio of the floored wait to the floored forecast.
func fcResidual(forecast, wait float64) float64 {
	return math.Log(math.Max(wait, fcFloor) / math.Max(forecast, fcFloor))
}

// add puts the residual r of a forecast of class c in the window, its
// events from seq on, dropping the oldest when full.
func (w *calWindow) add(c int64, r float64, seq int64) {
	if len(w.ring) == cap(w.ring) {
		old := w.ring[w.next]
		k, _ := slices.BinarySearch(w.sorted[old.class], old.r)
		w.sorted[old.class] = slices.Delete(w.sorted[old.class], k, k+1)
		w.ring[w.next] = calResidual{c, r}
		w.next = (w.next + 1) % len(w.ring)
	} else {
		w.ring = append(w.ring, calResidual{c, r})
	}
	k, _ := slices.BinarySearch(w.sorted[c], r)
	w.sorted[c] = slices.Insert(w.sorted[c], k, r)
	w.seqs.push(seq)
}

// count is the number of residuals of class c in the window.
func (w *calWindow) count(c int64) int { return len(w.sorted[c]) }

// interval is the interval at level around forecast (seconds) of class
// c, its class's residuals and the extra ones (sorted) ranked together:
// lo 0 when under the floor, hi +Inf while too few.
func (w *calWindow) interval(c int64, forecast, level float64, extra []float64) (lo, hi float64) {
	a := (1 - level) / 2
	base := w.sorted[c]
	m := len(base) + len(extra)
	ql, qh := math.Inf(-1), math.Inf(1)
	// (The ranks up to rounding: (1−0.9)/2 is 0.04999…, whose ⌊20a⌋ is 0.)
	if k := int(math.Floor(float64(m+1)*a + 1e-9)); k >= 1 {
		ql = kthOf(base, extra, min(k, m))
	}
	if k := int(math.Ceil(float64(m+1)*(1-a) - 1e-9)); k <= m {
		qh = kthOf(base, extra, max(k, 1))
	}
	p := math.Max(forecast, fcFloor)
	lo, hi = p*math.Exp(ql), p*math.Exp(qh)
	if lo <= fcFloor*(1+1e-9) {
		lo = 0
	}
	return lo, hi
}

// kthOf is the k-th smallest (from 1) of the union of two sorted slices.
func kthOf(a, b []float64, k int) float64 {
	i, j := 0, 0
	for {
		var v float64
		if j >= len(b) || i < len(a) && a[i] <= b[j] {
			v, i = a[i], i+1
		} else {
			v, j = b[j], j+1
		}
		if i+j == k {
			return v
		}
	}
}
