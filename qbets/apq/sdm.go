package apq

import (
	"math"
	"slices"
)

// kernel is the Gaussian kernel K(d) = exp(−(d/b)²) of sdm and the k-NN
// average (spec §2.7 [R], the paper's "e^{d^{-2}}" read so that nearer jobs
// weigh more).
func kernel(d, b float64) float64 {
	return math.Exp(-(d / b) * (d / b))
}

// sdm is the Standard Deviation Minimizer (§II-C2, spec §2.7). It splits
// the distance axis into windows [m·w, (m+1)·w) from 0, over the history
// jobs with distance d < thr; among the windows holding at least minJobs
// (and at least two) jobs
// it picks the one whose waits have the smallest population standard
// deviation (ties: the nearer window), and returns the kernel-weighted mean
// of that window's waits. ok is false when no window qualifies.
func sdm(d, wait []float64, w, thr, b float64, minJobs int) (pred float64, ok bool) {
	nw := int(math.Ceil(thr / w))
	if nw <= 0 {
		return 0, false
	}
	last := nw - 1
	win := func(x float64) int {
		if !(x < thr) || x < 0 {
			return -1
		}
		return min(int(x/w), last)
	}
	if nw > len(d) {
		// More windows than jobs (Validate allows w = 1e-9 at thr = 1: 10^9
		// windows, 24 GB a prediction): only the windows holding a job
		// are kept, in the same order, so the choice is the same.
		var ms []int
		for _, x := range d {
			if m := win(x); m >= 0 {
				ms = append(ms, m)
			}
		}
		slices.Sort(ms)
		ms = slices.Compact(ms)
		all := win
		win = func(x float64) int {
			m := all(x)
			if m < 0 {
				return -1
			}
			k, _ := slices.BinarySearch(ms, m)
			return k
		}
		nw = len(ms)
	}
	cnt := make([]int, nw)
	sum := make([]float64, nw)
	for i, x := range d {
		if m := win(x); m >= 0 {
			cnt[m]++
			sum[m] += wait[i]
		}
	}
	ss := make([]float64, nw)
	for i, x := range d {
		if m := win(x); m >= 0 {
			e := wait[i] - sum[m]/float64(cnt[m])
			ss[m] += e * e
		}
	}
	best, bestStd := -1, math.Inf(1)
	for m := range nw {
		if cnt[m] < max(minJobs, 2) {
			continue
		}
		if s := math.Sqrt(ss[m] / float64(cnt[m])); s < bestStd {
			best, bestStd = m, s
		}
	}
	if best < 0 {
		return 0, false
	}
	var sw, swy, plain float64
	for i, x := range d {
		if win(x) == best {
			k := kernel(x, b)
			sw += k
			swy += k * wait[i]
			plain += wait[i]
		}
	}
	if sw == 0 {
		return plain / float64(cnt[best]), true
	}
	return swy / sw, true
}

// kNNAverage is the weighted-average fallback (§II-C4, spec §2.9): the
// kernel-weighted mean wait of the k history jobs nearest by d, or their
// plain mean when every weight underflows. It returns 0 for an empty
// history.
func kNNAverage(d, wait []float64, k int, b float64) float64 {
	idx := nearest(d, k)
	if len(idx) == 0 {
		return 0
	}
	var sw, swy, plain float64
	for _, i := range idx {
		kw := kernel(d[i], b)
		sw += kw
		swy += kw * wait[i]
		plain += wait[i]
	}
	if sw == 0 {
		return plain / float64(len(idx))
	}
	return swy / sw
}
