package apq

import (
	"math"
	"slices"
)

// fineScale is the resolution at which a job's six distributions are
// stored: bins of width 1/fineScale on log(1+x), i.e. about 6% apart. The
// B coarse bins of the distance (spec §2.2 [R]: equal width on log(1+x)
// between the history window's min and max) are unions of these fine bins,
// so that a window change re-bins a stored job without the raw values,
// which would cost |Q|+|R| numbers per history job. A coarse edge is thus
// placed to within one fine bin.
const fineScale = 16

// fineBin is one occupied fine bin.
type fineBin struct {
	bin uint16
	n   uint32
}

// fineHist is one distribution (a multiset of non-negative values) at fine
// resolution. The zero value is the empty distribution.
type fineHist struct {
	bins   []fineBin // sorted by bin
	n      int
	lo, hi uint16 // smallest and largest occupied bin when n > 0
}

func fineIndex(x float64) uint16 {
	if !(x > 0) {
		return 0
	}
	return uint16(min(math.Log1p(x)*fineScale, math.MaxUint16))
}

// newFineHist builds a fineHist from the fine indices in idx (reordered).
func newFineHist(idx []uint16) fineHist {
	if len(idx) == 0 {
		return fineHist{}
	}
	slices.Sort(idx)
	h := fineHist{n: len(idx), lo: idx[0], hi: idx[len(idx)-1]}
	for _, b := range idx {
		if k := len(h.bins); k > 0 && h.bins[k-1].bin == b {
			h.bins[k-1].n++
		} else {
			h.bins = append(h.bins, fineBin{b, 1})
		}
	}
	return h
}

// edges are the coarse bins of one distribution: B equal-width bins over
// the fine indices lo..hi.
type edges struct {
	lo, hi uint16
	ok     bool // false when no job of the window has a value
}

func (e edges) coarse(b uint16, bins int) int {
	if !e.ok || b <= e.lo {
		return 0
	}
	if b >= e.hi {
		return bins - 1
	}
	return int(b-e.lo) * bins / int(e.hi-e.lo+1)
}

// rebin writes the normalized coarse histogram of h into dst (len = bins):
// bin counts divided by the number of values, so the bins sum to 1, or all
// zero for an empty distribution (§2.2).
func (h *fineHist) rebin(dst []float64, e edges) {
	clear(dst)
	if h.n == 0 {
		return
	}
	inv := 1 / float64(h.n)
	for _, fb := range h.bins {
		dst[e.coarse(fb.bin, len(dst))] += float64(fb.n) * inv
	}
}

// chiSquare is the histogram distance of Eq. 1, Σ (P[i]−Q[i])² / (P[i]+Q[i])
// without the ½ factor, skipping bins where P[i]+Q[i] = 0 (spec §2.3). For
// normalized histograms it lies in [0, 2]. P and Q must have equal length.
func chiSquare(p, q []float64) float64 {
	var s float64
	for i, a := range p {
		b := q[i]
		if t := a + b; t > 0 {
			s += (a - b) * (a - b) / t
		}
	}
	return s
}

func l2(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x * x
	}
	return math.Sqrt(s)
}
