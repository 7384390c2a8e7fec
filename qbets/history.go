package qbets

import (
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
	t.nMin = max(1, minHistoryOf(q, c)-1)
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
	// Gallop from the previous gap between steps (k(n) grows about
	// linearly, so the next step is usually about as far).
	step := 1
	if k > 1 {
		step = max(1, t.steps[k-1]-t.steps[k-2])
	}
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
		i, _ = lowerIndex(n, t.q, t.c)
		if len(t.lower) > 1<<12 {
			clear(t.lower) // sizes move on; keep the cache small
		}
		t.lower[n] = i
	}
	return i
}

// history is one wait history (spec §2.3): the values kept since the last
// change point, in release order and sorted (a multiset of sorted blocks:
// k-th smallest and rank cost O(log n), an insert O(log n) plus a move of
// at most 512 words, and a replayed history is rebuilt with one sort). It
// is not safe for concurrent use.
type history struct {
	tr     Trimmer // nil: no trimming
	nMin   int
	cap    int // > 0: keep at most about cap values (the oldest go)
	tab    *indexTable
	set    multiset
	recent []int64 // release order since the last trim
	trims  int

	boundN   int // history size the cached bound is for
	boundV   int64
	boundOK  bool
	probN    int
	probIdx  [100]int // upper index at q' = k/100 for probN; −1 = not computed
	probConf float64
}

func newHistory(tr Trimmer, nMin int, tab *indexTable) *history {
	return &history{tr: tr, nMin: nMin, tab: tab, boundN: -1, probN: -1}
}

func (h *history) len() int { return h.set.len() }

// add records one released wait in release order and reports whether it
// triggered a change point (the history was then trimmed).
func (h *history) add(w int64) bool {
	miss := false
	if h.tr != nil {
		b, ok := h.bound()
		miss = ok && w > b
	}
	h.insert(w)
	h.recent = append(h.recent, w)
	if h.tr != nil {
		if keep := h.tr.Observe(w, miss); keep > 0 {
			h.trimTo(max(keep, h.nMin))
			h.trims++
			return true
		}
	}
	if h.cap > 0 && len(h.recent) > h.cap+max(h.cap/8, 1) {
		h.trimTo(h.cap)
	}
	return false
}

func (h *history) insert(w int64) { h.set.insert(w) }

// trimTo keeps the most recent n values.
func (h *history) trimTo(n int) {
	if len(h.recent) > n {
		h.recent = append(h.recent[:0], h.recent[len(h.recent)-n:]...)
	}
	h.rebuild()
}

// rebuild recomputes the sorted set from recent.
func (h *history) rebuild() {
	h.set.build(slices.Clone(h.recent))
	h.boundN = -1
	h.probN = -1
}

// kth is the k-th smallest value, 1 ≤ k ≤ len.
func (h *history) kth(k int) int64 { return h.set.kth(k) }

// countLE is the number of values ≤ v.
func (h *history) countLE(v int64) int { return h.set.countLE(v) }

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

// lower is the lower level-C bound on the q-quantile (§2.1, Q2).
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
			i, ok := upperIndex(n, float64(k)/100, c)
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

// ok reports whether the history holds enough values for an upper bound.
func (h *history) ok() bool {
	_, ok := h.bound()
	return ok
}
