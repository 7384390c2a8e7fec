package apq

// summaryDistance is the feature-summary distance of Eqs. 3–4 (spec §2.3):
//
//	d = [W_1·1{req(a) ≠ req(b)} + Σ_{i=2..16} W_i·|a_i − b_i| / (max_i − min_i)] / Σ W_i
//
// with index 0 here the paper's feature 1 (request size, compared as a
// nominal value). lo and hi are each feature's range over the history plus
// the target; a zero range makes the term 0. A zero weight sum counts every
// weight as 1. The result lies in [0, 1] when a and b are inside the ranges.
func summaryDistance(a, b, w, lo, hi *[numFeatures]float64) float64 {
	var inv [numFeatures]float64
	for i := 1; i < numFeatures; i++ {
		if r := hi[i] - lo[i]; r > 0 {
			inv[i] = 1 / r
		}
	}
	ws := weightsOrOnes(w[:])
	return summaryDist(a, b, ws, &inv)
}

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

// distributionDistance is the distribution-based distance of Eq. 2 (spec
// §2.3) from its parts: whether the request sizes differ, the ERT
// difference already divided by the ERT range, and the six χ² distances
// already normalized to [0, 1]. wReq and wERT are the weights of features 1
// and 2, wd those of the six distributions; the whole sum is divided by the
// weight sum (spec §8-H3), all weights counting 1 when they sum to 0.
func distributionDistance(reqDiffers bool, ertNorm float64, chi *[numDists]float64, wReq, wERT float64, wd *[numDists]float64) float64 {
	return distributionDist(reqDiffers, ertNorm, chi, distributionWeights(wReq, wERT, wd))
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
