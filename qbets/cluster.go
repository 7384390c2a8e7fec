package qbets

// Why the clustering is as it is:
//
// Clustering. The model-based modes share one 1-D interval clusterer: contiguous
// intervals of a key, exponential waits (wait+1) in each, greedy merging
// of adjacent intervals with a heap and a linked list (O(U log U) in the U
// distinct keys), the number of clusters chosen by BIC = log L − (2k−1)/2
// ln n over k ∈ [1, min(10, ⌊n/59⌋)], and clusters below 59 jobs absorbed
// first. The thesis's synthetic check is TestSyntheticClusters: the true
// breakpoints 100/200/300/400 are recovered on all 40 seeds of a
// strong-contrast design and of a factor-3 design, each within the test's
// bound of 12 keys (the worst drifts it logs: 0 and 6 keys; the thesis:
// within 3 keys, with extra splits inside the intervals). The Predictor
// clusters the full history at the end of training and every 1000
// arrivals; a cluster whose key box did not change
// keeps its state, every other one is rebuilt by replaying the
// change-point detector over its jobs (Q9).
//
// The default clusters by the thesis's fixed processor ranges rather than
// its model-based clustering: on the archive logs BIC takes the cap of 10
// clusters at every level, each small cluster trims late, and correctness
// falls below 0.95; the fixed ranges keep it at or above 0.95 on every
// log and queue tested. The table per log and mode is in
// examples/qbets/README.md ("Clustering modes").

import (
	"container/heap"
	"math"
	"slices"
)

// clustering is the result of clusterIntervals: K contiguous intervals of
// the key. Cluster j covers (Uppers[j−1], Uppers[j]]; the first starts at
// −∞ and the last (which has no entry in Uppers) extends to +∞, so every
// key value, seen or not, belongs to exactly one cluster (spec §2.4 step 5).
type clustering struct {
	Uppers []int64    // K−1 breakpoints, ascending
	Sizes  []int      // jobs per cluster
	LogL   float64    // exponential log-likelihood of the chosen clustering
	BIC    float64    // LogL − (2K−1)/2 · ln n
	BICs   []float64  // BICs[k−1] = BIC of the greedy clustering with k clusters; NaN where k was not eligible
	N      int        // samples clustered
	K      int        // clusters chosen
	Ranges [][2]int64 // [min, max] of the keys seen in each cluster
}

// Index returns the cluster of key.
func (c clustering) Index(key int64) int { return clusterIndex(c.Uppers, key) }

// clusterIndex is the j with Uppers[j−1] < key ≤ Uppers[j].
func clusterIndex(uppers []int64, key int64) int {
	j, _ := slices.BinarySearch(uppers, key) // first upper ≥ key
	return j
}

// keyStat aggregates the jobs sharing one key value: count and Σ(wait+1).
type keyStat struct {
	key int64
	n   int
	s   float64
}

// ell is the maximized exponential log-likelihood of n waits summing to s:
// n ln(n/s) − n (λ = n/s).
func ell(n int, s float64) float64 {
	if n == 0 {
		return 0
	}
	f := float64(n)
	return f*math.Log(f/s) - f
}

// mergeCand is a candidate merge of the live adjacent clusters l and its
// right neighbour r, valid while both still have the versions recorded.
type mergeCand struct {
	l, r   int
	vl, vr int
	small  bool    // one side is below the minimum size: absorbed first (§2.4 step 4)
	delta  float64 // change of log L, ≤ 0
	lowKey int     // left group index, for a deterministic tie break
}

type candHeap []mergeCand

func (h candHeap) Len() int { return len(h) }
func (h candHeap) Less(i, j int) bool {
	a, b := h[i], h[j]
	if a.small != b.small {
		return a.small
	}
	if a.delta != b.delta {
		return a.delta > b.delta
	}
	return a.lowKey < b.lowKey
}
func (h candHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *candHeap) Push(x any)   { *h = append(*h, x.(mergeCand)) }
func (h *candHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// fitIntervals clusters groups (sorted by key, keys distinct). The merge
// sequence is nested, so one greedy pass visits every k; the best BIC seen
// among eligible k (all clusters ≥ minSize, k ≤ kMax) wins, and ties go to
// the smaller k (seen later in the pass).
func fitIntervals(groups []keyStat, minSize, kMax int) clustering {
	if minSize <= 0 {
		minSize = minHistoryOf(0.95, 0.95)
	}
	if kMax <= 0 {
		kMax = 10
	}
	u := len(groups)
	total := 0
	for _, g := range groups {
		total += g.n
	}
	res := clustering{N: total, BICs: make([]float64, kMax)}
	for i := range res.BICs {
		res.BICs[i] = math.NaN()
	}
	if u == 0 {
		res.K = 1
		res.Sizes = []int{0}
		res.Ranges = [][2]int64{{0, 0}}
		return res
	}
	// Live clusters as a doubly linked list over group indices: cluster i
	// spans groups i..hi[i].
	n := make([]int, u)
	s := make([]float64, u)
	hi := make([]int, u)
	prev := make([]int, u)
	next := make([]int, u)
	ver := make([]int, u)
	small := 0
	var logL float64
	for i, g := range groups {
		n[i], s[i], hi[i], prev[i], next[i] = g.n, g.s, i, i-1, i+1
		if g.n < minSize {
			small++
		}
		logL += ell(g.n, g.s)
	}
	next[u-1] = -1
	cand := func(l int) mergeCand {
		r := next[l]
		return mergeCand{l: l, r: r, vl: ver[l], vr: ver[r],
			small: n[l] < minSize || n[r] < minSize,
			delta: ell(n[l]+n[r], s[l]+s[r]) - ell(n[l], s[l]) - ell(n[r], s[r]), lowKey: l}
	}
	h := make(candHeap, 0, u)
	for i := 0; i+1 < u; i++ {
		h = append(h, cand(i))
	}
	heap.Init(&h)
	lnN := math.Log(float64(total))
	best := math.Inf(-1)
	k := u
	record := func() {
		if small > 0 || k > kMax {
			return
		}
		bic := logL - float64(2*k-1)/2*lnN
		res.BICs[k-1] = bic
		if bic < best {
			return
		}
		best = bic
		res.K, res.LogL, res.BIC = k, logL, bic
		res.Uppers, res.Sizes, res.Ranges = res.Uppers[:0], res.Sizes[:0], res.Ranges[:0]
		for c := 0; c >= 0; c = next[c] {
			if next[c] >= 0 {
				res.Uppers = append(res.Uppers, groups[hi[c]].key)
			}
			res.Sizes = append(res.Sizes, n[c])
			res.Ranges = append(res.Ranges, [2]int64{groups[c].key, groups[hi[c]].key})
		}
	}
	record()
	for k > 1 {
		m := heap.Pop(&h).(mergeCand)
		if ver[m.l] != m.vl || ver[m.r] != m.vr || next[m.l] != m.r {
			continue // stale: one side merged since
		}
		l, r := m.l, m.r
		if n[l] < minSize {
			small--
		}
		if n[r] < minSize {
			small--
		}
		n[l] += n[r]
		s[l] += s[r]
		hi[l] = hi[r]
		next[l] = next[r]
		if next[r] >= 0 {
			prev[next[r]] = l
		}
		ver[l]++
		ver[r] = -1 // dead
		if n[l] < minSize {
			small++
		}
		logL += m.delta
		k--
		if prev[l] >= 0 {
			heap.Push(&h, cand(prev[l]))
		}
		if next[l] >= 0 {
			heap.Push(&h, cand(l))
		}
		record()
	}
	if res.K == 0 { // fewer than minSize samples in all: one cluster
		res.K, res.LogL = 1, logL
		res.BIC = logL - 0.5*lnN
		res.Uppers = nil
		res.Sizes = []int{total}
		res.Ranges = [][2]int64{{groups[0].key, groups[u-1].key}}
	}
	return res
}
