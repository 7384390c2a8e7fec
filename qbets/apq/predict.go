package apq

import (
	"math"
	"slices"
)

// Predict returns the APQ point prediction of the wait of a job whose
// Point at submission is pt (spec §2.11):
//
//  1. distances to every history job in the configured representation;
//  2. N_k = the closest k% (at least MinPts+1 jobs); Case A if their mean
//     distance exceeds FarThr → ridge;
//  3. dbscan on N_k's unit-scaled (distance, wait) points; Case B if fewer
//     than OutlierFrac of them are noise → sdm, falling back to ridge when
//     sdm has no admissible window; otherwise Case C → ridge;
//  4. ridge trains on the history within RidgeMaxDist (summary distance),
//     or on all of it when fewer than 17 jobs qualify; a negative ridge
//     prediction is replaced by the k-NN weighted average.
//
// With Config.LogWait every step works on the log waits and the answer is
// the exponential of theirs, at most the longest wait in the history
// window. Ridge's linear extrapolation is exponential in seconds there:
// fit on the few hundred jobs at the start of KTH-SP2 it answered years
// for jobs outside them, past exp's range +Inf (an AAE of 206 days over
// the first 3,000 jobs). sdm and k-NN average the history's waits and
// never exceed it; the paper's waits in seconds are not capped.
func (p *Predictor) Predict(pt Point) (Prediction, error) {
	pr, err := p.predict(pt)
	if err == nil && p.cfg.LogWait {
		pr.Wait = math.Exp(min(pr.Wait, p.maxWait))
	}
	return pr, err
}

func (p *Predictor) predict(pt Point) (Prediction, error) {
	n := len(p.slots)
	if n == 0 {
		return Prediction{}, ErrEmpty
	}
	p.refresh()
	dS := p.summaryDistances(&pt)
	d := dS
	if p.cfg.Distribution {
		d = p.distributionDistances(&pt)
	}

	k := int(math.Ceil(p.cfg.KPct / 100 * float64(n)))
	k = min(max(k, p.cfg.MinPts+1), n)
	nk := nearest(d, k)
	var mean float64
	for _, i := range nk {
		mean += d[i]
	}
	mean /= float64(len(nk))
	if mean > p.cfg.FarThr {
		return p.ridgeOrKNN(&pt, dS, Prediction{Case: caseA}), nil
	}

	if p.noiseFraction(nk, d) < p.cfg.OutlierFrac {
		if w, ok := sdm(d, p.waits, p.cfg.SDMWindow, p.cfg.SDMDistThr, p.cfg.KernelWidth, p.cfg.SDMMinJobs); ok {
			return Prediction{Wait: w, Method: methodSDM, Case: caseB}, nil
		}
		return p.ridgeOrKNN(&pt, dS, Prediction{Case: caseB, SDMFallback: true}), nil
	}
	return p.ridgeOrKNN(&pt, dS, Prediction{Case: caseC}), nil
}

// noiseFraction runs dbscan on the points (d, wait) of the jobs nk, each
// axis min–max scaled to [0, 1] within nk (spec §8-H7), and returns the
// share of noise points.
func (p *Predictor) noiseFraction(nk []int, d []float64) float64 {
	x := make([]float64, len(nk))
	y := make([]float64, len(nk))
	for j, i := range nk {
		x[j] = d[i]
		y[j] = p.waits[i]
	}
	unitScale(x)
	unitScale(y)
	// The count must not be named noise: a local noise := 0 shadowed the
	// label, so this counted labels equal to the running count (0, then
	// 1, …) — a share near 0, Case B for nearly every target.
	outliers := 0
	for _, l := range dbscan(x, y, p.cfg.Eps, p.cfg.MinPts) {
		if l == noise {
			outliers++
		}
	}
	return float64(outliers) / float64(len(nk))
}

// unitScale maps v linearly onto [0, 1]; a constant v becomes all 0.
func unitScale(v []float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range v {
		lo, hi = min(lo, x), max(hi, x)
	}
	for i, x := range v {
		if hi > lo {
			v[i] = (x - lo) / (hi - lo)
		} else {
			v[i] = 0
		}
	}
}

func (p *Predictor) ridgeOrKNN(pt *Point, dS []float64, pr Prediction) Prediction {
	pr.Method = methodRidge
	rows, ys := p.trainRows[:0], p.trainY[:0]
	for i, x := range dS {
		if x <= p.cfg.RidgeMaxDist {
			rows = append(rows, p.rows[i])
			ys = append(ys, p.waits[i])
		}
	}
	p.trainRows, p.trainY = rows, ys
	if len(rows) < numFeatures+1 {
		rows, ys = p.rows, p.waits
	}
	w, err := ridge(rows, ys, pt.F[:], p.cfg.RidgeLambda)
	if err != nil || w < 0 {
		// err cannot happen with λ > 0 and a non-empty history; treat it
		// like a negative prediction rather than fail the caller.
		pr.Method = methodKNN
		w = kNNAverage(dS, p.waits, p.cfg.KNN, p.cfg.KernelWidth)
	}
	pr.Wait = w
	return pr
}

// summaryDistances returns the Eq. 3–4 distance from pt to every history
// job, by slot, with the ranges over the history plus pt.
func (p *Predictor) summaryDistances(pt *Point) []float64 {
	var inv [numFeatures]float64
	for i := 1; i < numFeatures; i++ {
		inv[i] = invRange(min(p.fmin[i], pt.F[i]), max(p.fmax[i], pt.F[i]))
	}
	w := weightsOrOnes(p.wF[:])
	d := slices.Grow(p.dS[:0], len(p.slots))[:len(p.slots)]
	p.dS = d
	for s := range p.slots {
		d[s] = summaryDist(&pt.F, &p.slots[s].pt.F, w, &inv)
	}
	return d
}

// distributionDistances returns the Eq. 2 distance from pt to every history
// job, by slot: the target's histograms use the window's edges (values
// outside them fall in the end bins), and each distribution's χ² values are
// divided by their maximum over the history (H2).
func (p *Predictor) distributionDistances(pt *Point) []float64 {
	n, b := len(p.slots), p.cfg.Bins
	tc := make([]float64, numDists*b)
	for i := range numDists {
		pt.d[i].rebin(tc[i*b:(i+1)*b], p.edges[i])
	}
	chi := slices.Grow(p.chi[:0], n)[:n]
	p.chi = chi
	var colMax [numDists]float64
	for s := range p.slots {
		c := p.slots[s].coarse
		for i := range numDists {
			x := chiSquare(tc[i*b:(i+1)*b], c[i*b:(i+1)*b])
			chi[s][i] = x
			colMax[i] = max(colMax[i], x)
		}
	}
	ertLo, ertHi := min(p.fmin[1], pt.F[1]), max(p.fmax[1], pt.F[1])
	ws := distributionWeights(p.wF[0], p.wF[1], &p.wD)
	d := slices.Grow(p.dD[:0], n)[:n]
	p.dD = d
	for s := range p.slots {
		h := &p.slots[s].pt
		c := &chi[s]
		for i := range c {
			if colMax[i] > 0 {
				c[i] /= colMax[i]
			} else {
				c[i] = 0
			}
		}
		var ertNorm float64
		if ertHi > ertLo {
			ertNorm = math.Abs(pt.F[1]-h.F[1]) / (ertHi - ertLo)
		}
		d[s] = distributionDist(pt.F[0] != h.F[0], ertNorm, c, ws)
	}
	return d
}
