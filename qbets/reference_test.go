package qbets

// Functions that only the tests call, moved out of the production files.

import (
	"cmp"
	"slices"
)

// minHistoryLower is the smallest history size for which a lower bound
// exists; −1 when q or c is outside (0, 1) or NaN.
func minHistoryLower(q, c float64) int {
	if !inUnit(q) || !inUnit(c) {
		return noSize
	}
	n := minHistory(1-q, c)
	if n == noSize {
		return noSize
	}
	return max(1, n)
}

// twoSidedIndex returns the 1-based ascending indices (lo, hi) of a
// two-sided level-c confidence interval [x(lo), x(hi)] on the q-quantile:
// each side is a one-sided bound at confidence (1+c)/2, so the two
// non-coverage probabilities (each ≤ (1−c)/2) add to at most 1−c (spec §2.1,
// Q2). ok is false when either side has no bound for n, and when q or c
// is outside (0, 1) or NaN.
func twoSidedIndex(n int, q, c float64) (lo, hi int, ok bool) {
	if !inUnit(q) || !inUnit(c) {
		return 0, 0, false
	}
	side := (1 + c) / 2
	lo, okLo := lowerIndex(n, q, side)
	hi, okHi := upperIndex(n, q, side)
	if !okLo || !okHi {
		return 0, 0, false
	}
	return lo, hi, true
}

// minHistoryTwoSided is the smallest history size for which both sides of
// the two-sided interval exist; −1 when q or c is outside
// (0, 1) or NaN.
func minHistoryTwoSided(q, c float64) int {
	if !inUnit(q) || !inUnit(c) {
		return noSize
	}
	side := (1 + c) / 2
	up, lo := minHistoryOf(q, side), minHistoryLower(q, side)
	if up == noSize || lo == noSize {
		return noSize
	}
	return max(up, lo)
}

// sample is one job as the interval clusterer sees it: the value of its
// explanatory key (known at submit time: nodes, requested time, ...) and
// its wait in seconds (the response).
type sample struct {
	Key, Wait int64
}

// clusterIntervals partitions samples into contiguous intervals of Key
// whose waits are each modelled as exponential (spec §2.4 b, thesis
// §4.2.4): agglomerative merging of adjacent intervals by largest
// log-likelihood, the number of clusters chosen by BIC in
// [1, min(kMax, ⌊n/minSize⌋)], every cluster holding at least minSize
// samples (except when there are fewer than minSize in all). minSize 0
// means 59 (n_min at q = C = 0.95) and kMax 0 means 10. Waits enter the
// likelihood as wait+1 so that zero waits are allowed (Q8); negative waits
// count as 0. It costs O(n log n) for n samples (the sort), then
// O(U log U) for U distinct keys.
func clusterIntervals(samples []sample, minSize, kMax int) clustering {
	xs := slices.Clone(samples)
	slices.SortFunc(xs, func(a, b sample) int { return cmp.Compare(a.Key, b.Key) })
	var groups []keyStat
	for _, s := range xs {
		w := float64(max(s.Wait, 0)) + 1
		if len(groups) > 0 && groups[len(groups)-1].key == s.Key {
			groups[len(groups)-1].n++
			groups[len(groups)-1].s += w
			continue
		}
		groups = append(groups, keyStat{key: s.Key, n: 1, s: w})
	}
	return fitIntervals(groups, minSize, kMax)
}
