package qbets

import (
	"math"
	"slices"
)

// indexTable caches the Binomial-Method indices by history size for one
// (q, C). Replaying a cluster's history after re-clustering needs the
// upper index at every size, and a binomial CDF costs about a
// microsecond at large n, so the table stores only where the count of
// skipped top values k(n) = n − i_up(n) steps up: i_up(n+1) ≤ i_up(n)+1
// (spec §2.1 Numerics), so k is nondecreasing and each step is found by
// a galloping search, a handful of CDFs per step instead of one per size.
type indexTable struct {
	q, c  float64
	nMin  int   // smallest n with a bound
	steps []int // steps[j] = smallest n with k(n) > j, i.e. x(n−j−1) bounds
	lower map[int]int
}

func newIndexTable(q, c float64) *indexTable {
	t := &indexTable{q: q, c: c, lower: map[int]int{}}
	t.nMin = max(1, MinHistory(q, c)-1)
	for !t.enough(t.nMin, t.nMin) {
		t.nMin++
	}
	return t
}

// enough reports whether x(i) is an upper bound at size n:
// P(Bin(n, q) ≤ i−1) ≥ C, with UpperIndex's tolerance.
func (t *indexTable) enough(n, i int) bool { return binomCDF(i-1, n, t.q) >= t.c-tol }

// upper returns i_up(n), or 0 when n is below the minimum history.
func (t *indexTable) upper(n int) int {
	if n < t.nMin {
		return 0
	}
	for len(t.steps) == 0 || t.steps[len(t.steps)-1] <= n {
		t.addStep()
	}
	return n - upperBound(t.steps, n)
}

// addStep finds the next n at which k(n) exceeds len(steps): the
// smallest n at which x(n−k−1) is already an upper bound.
func (t *indexTable) addStep() {
	k := len(t.steps)
	lo := t.nMin // k(lo) = k: x(lo−k−1) is not a bound yet
	if k > 0 {
		lo = t.steps[k-1]
	}
	step := 1
	hi := lo + step
	for !t.enough(hi, hi-k-1) {
		lo = hi
		step *= 2
		hi = lo + step
	}
	for hi-lo > 1 { // invariant: not enough at lo, enough at hi
		m := lo + (hi-lo)/2
		if t.enough(m, m-k-1) {
			hi = m
		} else {
			lo = m
		}
	}
	t.steps = append(t.steps, hi)
}

// lowerIdx returns i_lo(n), or 0 when there is no lower bound.
func (t *indexTable) lowerIdx(n int) int {
	i, ok := t.lower[n]
	if !ok {
		i, _ = LowerIndex(n, t.q, t.c)
		if len(t.lower) > 1<<12 {
			clear(t.lower) // sizes move on; keep the cache small
		}
		t.lower[n] = i
	}
	return i
}

// history is one trimmed wait history (spec §2.3): the values kept since
// the last change point, in release order and sorted, with the run of
// misses against the current upper bound. The sorted multiset is a large
// sorted slice plus a small sorted insert buffer merged into it when it
// reaches about √n: k-th smallest and rank cost O(log n), an insert
// amortized O(√n) word moves, and — unlike a tree — a replayed history is
// rebuilt with one sort. It is not safe for concurrent use.
type history struct {
	trim   bool
	nMin   int
	tab    *indexTable
	base   []int64 // sorted
	buf    []int64 // sorted, len ≤ bufLimit
	spare  []int64 // merge scratch
	recent []int64 // release order since the last trim
	run    int     // consecutive misses of the pre-insert bound
	trims  int
	// Running sums of x = ln(1+wait) over recent, for the lag-1
	// autocorrelation in O(1) (the threshold lookup of §2.3).
	sx, sxx, sxy float64

	boundN   int // history size the cached bound is for
	boundV   int64
	boundOK  bool
	probN    int
	probIdx  [100]int // upper index at q' = k/100 for probN; −1 = not computed
	probConf float64
}

func newHistory(trim bool, nMin int, tab *indexTable) *history {
	return &history{trim: trim, nMin: nMin, tab: tab, boundN: -1, probN: -1}
}

func (h *history) len() int { return len(h.base) + len(h.buf) }

// add records one released wait in release order and reports whether it
// triggered a change point (the history was then trimmed to n_min).
func (h *history) add(w int64) bool {
	if h.trim {
		if b, ok := h.bound(); ok && w > b {
			h.run++
		} else {
			h.run = 0
		}
	}
	h.insert(w)
	h.appendRecent(w)
	if h.trim && h.run >= 3 && h.run >= RunThreshold(h.rho()) {
		h.trimTo(h.nMin)
		return true
	}
	return false
}

func (h *history) insert(w int64) {
	i, _ := slices.BinarySearch(h.buf, w)
	h.buf = slices.Insert(h.buf, i, w)
	if len(h.buf) > max(64, int(math.Sqrt(float64(len(h.base))))) {
		h.flush()
	}
}

// flush merges the insert buffer into the sorted base.
func (h *history) flush() {
	out := slices.Grow(h.spare[:0], len(h.base)+len(h.buf))
	a, b := h.base, h.buf
	for len(a) > 0 && len(b) > 0 {
		if a[0] <= b[0] {
			out = append(out, a[0])
			a = a[1:]
		} else {
			out = append(out, b[0])
			b = b[1:]
		}
	}
	out = append(append(out, a...), b...)
	h.spare = h.base
	h.base = out
	h.buf = h.buf[:0]
}

// appendRecent appends w to recent and updates the running sums.
func (h *history) appendRecent(w int64) {
	x := math.Log1p(float64(w))
	if n := len(h.recent); n > 0 {
		h.sxy += x * math.Log1p(float64(h.recent[n-1]))
	}
	h.recent = append(h.recent, w)
	h.sx += x
	h.sxx += x * x
}

// resum recomputes the running sums from recent (after a trim).
func (h *history) resum() {
	h.sx, h.sxx, h.sxy = 0, 0, 0
	prev := 0.0
	for i, w := range h.recent {
		x := math.Log1p(float64(w))
		h.sx += x
		h.sxx += x * x
		if i > 0 {
			h.sxy += x * prev
		}
		prev = x
	}
}

// rho is the lag-1 autocorrelation of ln(1+wait) over recent; it equals
// Lag1 of the same values up to rounding.
func (h *history) rho() float64 {
	n := len(h.recent)
	if n < 3 {
		return 0
	}
	nf := float64(n)
	m := h.sx / nf
	den := h.sxx - nf*m*m
	if den <= 1e-9*h.sxx || den <= 0 {
		return 0
	}
	first := math.Log1p(float64(h.recent[0]))
	last := math.Log1p(float64(h.recent[n-1]))
	num := h.sxy - m*(2*h.sx-first-last) + (nf-1)*m*m
	return num / den
}

// trimTo keeps the most recent n values (the change point of §2.3).
func (h *history) trimTo(n int) {
	h.trims++
	h.run = 0
	if len(h.recent) > n {
		h.recent = slices.Clone(h.recent[len(h.recent)-n:])
	}
	h.rebuild()
}

// rebuild recomputes the sorted set and the sums from recent.
func (h *history) rebuild() {
	h.base = append(h.base[:0], h.recent...)
	slices.Sort(h.base)
	h.buf = h.buf[:0]
	h.spare = nil
	h.resum()
	h.boundN = -1
	h.probN = -1
}

// kth is the k-th smallest value, 1 ≤ k ≤ len.
func (h *history) kth(k int) int64 {
	a, b := h.buf, h.base
	if len(a) == 0 {
		return b[k-1]
	}
	// Take i values from a and k−i from b: the smallest i with
	// a[i] ≥ b[k−i−1].
	lo, hi := max(0, k-len(b)), min(k, len(a))
	for lo < hi {
		i := int(uint(lo+hi) >> 1)
		if a[i] < b[k-i-1] {
			lo = i + 1
		} else {
			hi = i
		}
	}
	i, j := lo, k-lo
	switch {
	case i == 0:
		return b[j-1]
	case j == 0:
		return a[i-1]
	}
	return max(a[i-1], b[j-1])
}

// countLE is the number of values ≤ v.
func (h *history) countLE(v int64) int {
	return upperBound(h.base, v) + upperBound(h.buf, v)
}

// upperBound is the number of values of the sorted xs that are ≤ v.
func upperBound[T int | int64](xs []T, v T) int {
	lo, hi := 0, len(xs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if xs[m] <= v {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// bound is the upper level-C bound on the q-quantile (§2.1).
func (h *history) bound() (int64, bool) {
	n := h.len()
	if n != h.boundN {
		h.boundN = n
		i := h.tab.upper(n)
		h.boundOK = i > 0
		if h.boundOK {
			h.boundV = h.kth(i)
		}
	}
	return h.boundV, h.boundOK
}

// lower is the lower level-C bound on the q-quantile (§2.1, A2).
func (h *history) lower() (int64, bool) {
	n := h.len()
	if n == 0 {
		return 0, false
	}
	i := h.tab.lowerIdx(n)
	if i == 0 {
		return 0, false
	}
	return h.kth(i), true
}

// probWithin is the inverted query of §2.7 at confidence c: the largest
// q' in {0.01, …, 0.99} whose upper bound is ≤ within, or 0.
func (h *history) probWithin(within int64, c float64) float64 {
	n := h.len()
	if n != h.probN || c != h.probConf {
		h.probN, h.probConf = n, c
		for k := range h.probIdx {
			h.probIdx[k] = -1
		}
	}
	r := h.countLE(within)
	idx := func(k int) int {
		if h.probIdx[k] < 0 {
			i, ok := UpperIndex(n, float64(k)/100, c)
			if !ok {
				i = n + 1
			}
			h.probIdx[k] = i
		}
		return h.probIdx[k]
	}
	// idx is nondecreasing in k: find the largest k with idx(k) ≤ r.
	lo, hi := 0, 99
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if idx(mid) <= r {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return float64(lo) / 100
}
