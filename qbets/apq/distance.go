package apq

import "math"

// summaryDist is summaryDistance with the inverse ranges precomputed and
// weights already normalized to sum 1.
func summaryDist(a, b, w, inv *[numFeatures]float64) float64 {
	var d float64
	if a[0] != b[0] {
		d = w[0]
	}
	for i := 1; i < numFeatures; i++ {
		x := a[i] - b[i]
		if x < 0 {
			x = -x
		}
		d += w[i] * x * inv[i]
	}
	return d
}

// weightsOrOnes returns w scaled to sum 1, or uniform when the sum is 0.
func weightsOrOnes(w []float64) *[numFeatures]float64 {
	var out [numFeatures]float64
	var s float64
	for _, x := range w {
		s += x
	}
	for i := range w {
		if s > 0 {
			out[i] = w[i] / s
		} else {
			out[i] = 1 / float64(len(w))
		}
	}
	return &out
}

// distributionWeights are Eq. 2's weights (request size, ERT, the six
// distributions) normalized to sum 1, in ws[0..7].
func distributionWeights(wReq, wERT float64, wd *[numDists]float64) *[numFeatures]float64 {
	w := make([]float64, 0, 2+numDists)
	w = append(w, wReq, wERT)
	w = append(w, wd[:]...)
	return weightsOrOnes(w)
}

// distributionDist is distributionDistance with the weights already
// normalized (distributionWeights), so that a prediction normalizes them
// once rather than once per history job.
func distributionDist(reqDiffers bool, ertNorm float64, chi *[numDists]float64, ws *[numFeatures]float64) float64 {
	var d float64
	if reqDiffers {
		d = ws[0]
	}
	d += ws[1] * ertNorm
	for i := range numDists {
		d += ws[2+i] * chi[i]
	}
	return d
}

// invRange is 1 / (hi − lo), the scale of a feature's differences, or 0
// for a feature with no spread: hi ≤ lo, or a spread so small (a
// subnormal, below 2^-1022) that its inverse overflows to +Inf, which
// made a distance +Inf (or NaN, 0 · Inf) instead of a value in [0, 1].
func invRange(lo, hi float64) float64 {
	if r := hi - lo; r > 0 {
		if v := 1 / r; !math.IsInf(v, 0) {
			return v
		}
	}
	return 0
}
