package ibl

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Prediction is a kernel-regression estimate of the wait with its
// confidence interval (§4.4): the actual wait is expected in
// [Wait − HalfWidth, Wait + HalfWidth] Level percent of the time.
type Prediction struct {
	Wait      float64 // seconds, ≥ 0
	HalfWidth float64 // seconds; +Inf when the spread is undefined
	Level     int     // percent
	Neighbors int     // experiences used
}

// ErrEmpty is returned by Predict when the base holds no experience.
var ErrEmpty = errors.New("ibl: experience base is empty")

type neighbor struct {
	d    float64
	wait float64
}

// Predict estimates the wait of a query (one value per feature) at a
// confidence level in percent, 1–99 (the service accepts 10–95).
func (b *Base) Predict(q []Value, level int) (Prediction, error) {
	if len(q) != len(b.kinds) {
		return Prediction{}, fmt.Errorf("ibl: query has %d inputs for %d features", len(q), len(b.kinds))
	}
	if level < 1 || level > 99 {
		return Prediction{}, fmt.Errorf("ibl: confidence level %d, want 1–99", level)
	}
	if len(b.ring) == 0 {
		return Prediction{}, ErrEmpty
	}
	nb := b.neighbors(q)
	return estimate(nb, b.cfg.KernelWidth, level, b.cfg.Interval), nil
}

// neighbors selects by §4.3: the N nearest, or all within R (1-NN when
// none is).
func (b *Base) neighbors(q []Value) []neighbor {
	all := make([]neighbor, len(b.ring))
	for i := range b.ring {
		all[i] = neighbor{HEOM(b.kinds, q, b.ring[i].In, b.cfg.Weights, b.ranges), b.ring[i].Wait}
	}
	if b.cfg.Mode == Radius {
		in := all[:0:0]
		best := 0
		for i, n := range all {
			if n.d <= b.cfg.R {
				in = append(in, n)
			}
			if n.d < all[best].d {
				best = i
			}
		}
		if len(in) == 0 {
			return all[best : best+1]
		}
		return in
	}
	if len(all) <= b.cfg.N {
		return all
	}
	selectSmallest(all, b.cfg.N)
	return all[:b.cfg.N]
}

// selectSmallest moves the k smallest distances to all[:k] (quickselect,
// O(n) expected); their order is unspecified, which the sums ignore.
func selectSmallest(a []neighbor, k int) {
	lo, hi := 0, len(a)-1
	for lo < hi {
		p := a[lo+(hi-lo)/2].d
		i, j := lo, hi
		for i <= j {
			for a[i].d < p {
				i++
			}
			for a[j].d > p {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		switch {
		case k-1 <= j:
			hi = j
		case k-1 >= i:
			lo = i
		default:
			return
		}
	}
}

// estimate is the kernel regression of §4.4: E = Σ K·w / Σ K with
// K(d) = exp(−(d/k)²), falling back to the plain mean when every kernel
// weight underflows to 0.
func estimate(nb []neighbor, width float64, level int, iv Interval) Prediction {
	k := make([]float64, len(nb))
	var sk, skw float64
	for i, n := range nb {
		k[i] = math.Exp(-sq(n.d / width))
		sk += k[i]
		skw += k[i] * n.wait
	}
	if sk == 0 || math.IsNaN(sk) {
		for i := range k {
			k[i] = 1
		}
		sk, skw = float64(len(nb)), 0
		for _, n := range nb {
			skw += n.wait
		}
	}
	e := skw / sk
	p := Prediction{Wait: math.Max(e, 0), Level: level, Neighbors: len(nb)}
	switch iv {
	case Empirical:
		p.HalfWidth = weightedResidualQuantile(nb, k, e, float64(level)/100)
	default:
		var v float64
		for i, n := range nb {
			v += k[i] * sq(n.wait-e)
		}
		sigma := math.Sqrt(v / sk)
		if math.IsNaN(sigma) {
			p.HalfWidth = math.Inf(1)
		} else {
			p.HalfWidth = Z(level) * sigma
		}
	}
	return p
}

// weightedResidualQuantile is the smallest |wait − e| whose cumulative
// kernel weight reaches the fraction q of the total.
func weightedResidualQuantile(nb []neighbor, k []float64, e, q float64) float64 {
	type rw struct{ r, w float64 }
	rs := make([]rw, len(nb))
	var total float64
	for i, n := range nb {
		rs[i] = rw{math.Abs(n.wait - e), k[i]}
		total += k[i]
	}
	slices.SortFunc(rs, func(a, b rw) int { return cmp.Compare(a.r, b.r) })
	var c float64
	for _, x := range rs {
		c += x.w
		if c >= q*total {
			return x.r
		}
	}
	return rs[len(rs)-1].r
}

// Accuracy is the paper's per-job score (§V): 1 when the estimate equals
// the actual wait, else the smaller over the larger, so it lies in [0, 1]
// and is 0 when exactly one of them is 0.
func Accuracy(est, act float64) float64 {
	if est == act {
		return 1
	}
	if est > act {
		return act / est
	}
	return est / act
}
