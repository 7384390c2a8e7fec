package qbets

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

// tol absorbs floating-point rounding at exact boundaries such as the
// lower bound at q = C = 0.95, n = 1 (spec §2.1 footnote).
const tol = 1e-12

// binomCDF is P(Bin(n, q) ≤ m), via the regularized incomplete beta so it
// stays exact for n in the millions.
func binomCDF(m, n int, q float64) float64 {
	switch {
	case m < 0:
		return 0
	case m >= n:
		return 1
	}
	return mathext.RegIncBeta(float64(n-m), float64(m+1), 1-q)
}

// UpperIndex is the 1-based ascending index i of the order statistic x(i)
// that is an upper confidence bound, at level l.Confidence = c, on the
// q = l.Quantile quantile of n i.i.d. observations: the smallest i with
// P(Bin(n,q) ≤ i−1) ≥ c (spec §2.1). ok is false when n is too small
// (1 − q^n < c), and when q or c is outside (0, 1) or NaN: there is no
// bound to index.
func (l Level) UpperIndex(n int) (i int, ok bool) { return upperIndex(n, l.Quantile, l.Confidence) }

// upperIndex is Level{q, c}.UpperIndex(n).
func upperIndex(n int, q, c float64) (i int, ok bool) {
	if !inUnit(q) || !inUnit(c) || n < 1 || binomCDF(n-1, n, q) < c-tol {
		return 0, false
	}
	i = normalGuess(n, q, c)
	// Step to the smallest i in 1..n with CDF(i−1) ≥ c.
	for i < n && binomCDF(i-1, n, q) < c-tol {
		i++
	}
	for i > 1 && binomCDF(i-2, n, q) >= c-tol {
		i--
	}
	return i, true
}

// lowerIndex is the 1-based ascending index of the lower level-c bound:
// the largest i with P(Bin(n,q) ≥ i) ≥ c. ok is false when 1 − (1−q)^n < c,
// and when q or c is outside (0, 1) or NaN.
func lowerIndex(n int, q, c float64) (i int, ok bool) {
	if !inUnit(q) || !inUnit(c) || n < 1 || 1-binomCDF(0, n, q) < c-tol {
		return 0, false
	}
	i = normalGuess(n, q, 1-c)
	for i > 1 && 1-binomCDF(i-1, n, q) < c-tol {
		i--
	}
	for i < n && 1-binomCDF(i, n, q) >= c-tol {
		i++
	}
	return i, true
}

// normalGuess starts the index search near nq + z·sqrt(nq(1−q)), clamped.
func normalGuess(n int, q, c float64) int {
	z := math.Sqrt2 * math.Erfinv(2*c-1)
	nf := float64(n)
	g := int(math.Ceil(nf*q+z*math.Sqrt(nf*q*(1-q)))) + 1
	return min(max(g, 1), n)
}

// inUnit reports whether x is in the open interval (0, 1), NaN excluded:
// the quantiles and confidence levels the index functions accept.
func inUnit(x float64) bool { return x > 0 && x < 1 }

// noSize (−1) is what the minimum-history functions return when no history
// size gives a bound: q or c outside (0, 1) or NaN, or a size beyond 2^53.
const noSize = -1

// minHistory is ⌈log(1−c)/log(base)⌉ as an int, or noSize when it is
// not finite or too large to count.
func minHistory(base, c float64) int {
	v := math.Ceil(math.Log(1-c)/math.Log(base) - tol)
	if !(v >= 0 && v <= 1<<53) {
		return noSize
	}
	return int(v)
}

// MinHistory is the smallest history size for which level l has an upper
// bound (59 at q = C = 0.95). It returns −1 when the quantile or the
// confidence is outside (0, 1) or NaN, where UpperIndex has no bound for
// any n.
func (l Level) MinHistory() int { return minHistoryOf(l.Quantile, l.Confidence) }

// minHistoryOf is Level{q, c}.MinHistory().
func minHistoryOf(q, c float64) int {
	if !inUnit(q) || !inUnit(c) {
		return noSize
	}
	return minHistory(q, c)
}
