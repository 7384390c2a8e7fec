package parametric

import "math"

// The parametric comparators of spec §2.2, used by the evaluator. All fit
// on w+1 and subtract 1 after back-transforming, because zero waits are
// common.

// LogNormalBound is the upper level-c confidence bound on the q-quantile of
// a log-normal fitted to n values of ln(w+1) with mean m and standard
// deviation s (the n−1 form: the MLE σ would make the bound slightly
// anti-conservative, Brevik note B7): exp(m + K·s) − 1 with the exact
// non-central t tolerance factor K (ToleranceFactor). ok is false when
// n < 2. Use LogNormalBoundK with a ToleranceFactors memo in loops.
func LogNormalBound(n int, m, s, q, c float64) (float64, bool) {
	k, ok := ToleranceFactor(n, q, c)
	if !ok {
		return 0, false
	}
	return LogNormalBoundK(k, m, s), true
}

// LogNormalBoundK is exp(m + k·s) − 1 for a precomputed tolerance factor k.
func LogNormalBoundK(k, m, s float64) float64 {
	return math.Expm1(m + k*s)
}

// LogUniformQuantile is the q-quantile of ln(w+1) ~ U[ln(lo+1), ln(hi+1)],
// the MLE fit from the smallest and largest wait.
func LogUniformQuantile(lo, hi int64, q float64) float64 {
	a, b := math.Log1p(float64(lo)), math.Log1p(float64(hi))
	return math.Exp(a+q*(b-a)) - 1
}

// WeibullFit is the MLE (shape k, scale λ) of a Weibull fitted to w+1,
// by Newton iteration on the shape equation. ok is false when the data
// are degenerate (fewer than 2 values or all equal).
func WeibullFit(waits []int64) (k, lambda float64, ok bool) {
	lx := make([]float64, len(waits))
	for i, w := range waits {
		lx[i] = math.Log1p(float64(w))
	}
	return WeibullFitLog(lx, 0)
}

// WeibullFitLog is WeibullFit on lx = ln(w+1), starting Newton's method
// from shape k0 (0: a moment guess). A replay that refits a growing
// history passes the previous shape, which cuts the iterations to two or
// three.
func WeibullFitLog(lx []float64, k0 float64) (k, lambda float64, ok bool) {
	n := len(lx)
	if n < 2 {
		return 0, 0, false
	}
	var meanL, sumL2 float64
	maxL := lx[0]
	for _, l := range lx {
		meanL += l
		maxL = max(maxL, l)
	}
	meanL /= float64(n)
	for _, l := range lx {
		sumL2 += (l - meanL) * (l - meanL)
	}
	if sumL2 == 0 {
		return 0, 0, false
	}
	k = k0
	if !(k > 0) {
		k = 1.2 / math.Sqrt(sumL2/float64(n)) // moment guess: sd(ln x) ≈ π/(k√6)
	}
	for range 100 {
		// f(k) = A/B − 1/k − meanL with A = Σ x^k ln x, B = Σ x^k; scale by max to avoid overflow.
		var A, B, C float64
		for _, l := range lx {
			e := math.Exp(k * (l - maxL))
			A += e * l
			B += e
			C += e * l * l
		}
		f := A/B - 1/k - meanL
		df := (C/B - (A/B)*(A/B)) + 1/(k*k)
		next := k - f/df
		if next <= 0 {
			next = k / 2
		}
		if math.Abs(next-k) < 1e-10*k {
			k = next
			break
		}
		k = next
	}
	var s float64
	for _, l := range lx {
		s += math.Exp(k * (l - maxL))
	}
	lambda = math.Exp(maxL) * math.Pow(s/float64(n), 1/k)
	return k, lambda, !math.IsNaN(k) && !math.IsNaN(lambda) && k > 0
}

// WeibullQuantile is the q-quantile of the fitted Weibull, minus the 1 added
// before fitting.
func WeibullQuantile(k, lambda, q float64) float64 {
	return lambda*math.Pow(-math.Log(1-q), 1/k) - 1
}
