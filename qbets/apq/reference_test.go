package apq

// Functions that only the tests call, moved out of the production files.

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
		inv[i] = invRange(lo[i], hi[i])
	}
	ws := weightsOrOnes(w[:])
	return summaryDist(a, b, ws, &inv)
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

// spearman is the rank correlation of x and y (equal lengths): the Pearson
// correlation of their ranks, ties given their average rank (spec §2.4
// [R]). It is 0 when either series is constant or shorter than 2, so a
// constant feature gets weight 0.
func spearman(x, y []float64) float64 {
	rx := ranks(x, nil, nil)
	ry := ranks(y, nil, nil)
	return pearson(rx, ry)
}
