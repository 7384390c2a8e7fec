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
	HalfWidth float64 // seconds; +Inf when the spread is undefined (one neighbour)
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
	if err := b.checkValues("query", q); err != nil {
		return Prediction{}, err
	}
	if b.n == 0 {
		return Prediction{}, ErrEmpty
	}
	buf, _ := b.scratch.Get().(*[]float64)
	if buf == nil {
		buf = new([]float64)
	}
	d2 := b.distances(q, (*buf)[:0])
	nb := b.neighbors(d2)
	*buf = d2
	b.scratch.Put(buf)
	return estimate(nb, b.cfg.KernelWidth, level, b.cfg.Empirical, b.cfg.Estimate), nil
}

// distances returns the squared HEOM distance of q to every held
// experience, by slot. It computes the same sum as HEOM, one feature (one
// contiguous column) at a time.
func (b *Base) distances(q []Value, d2 []float64) []float64 {
	d2 = append(d2, make([]float64, b.n)...)
	for f, k := range b.kinds {
		w := b.cfg.Weights[f]
		if w == 0 {
			continue
		}
		col := b.cols[f]
		x := b.encode(k, q[f], false)
		if math.IsNaN(x) { // unknown query value: d_f = 1 for all
			for i := range d2 {
				d2[i] += w
			}
			continue
		}
		if k != linear {
			// Branch-free overlap metric: the bit patterns differ iff the
			// values do (ids are small non-negative integers; an unknown
			// NaN differs from every id, so it costs w too). A data-dependent
			// branch here mispredicts about half the time.
			xb := math.Float64bits(x)
			for i, y := range col {
				m := math.Float64bits(y) ^ xb
				d2[i] += w * float64((m|-m)>>63)
			}
			continue
		}
		r := b.rangeOf(f)
		inv := 0.0 // empty range: d_f = 0 between known values
		if r.Max > r.Min {
			inv = 1 / (r.Max - r.Min)
		}
		for i, y := range col {
			if y != y {
				d2[i] += w
				continue
			}
			t := (y - x) * inv
			d2[i] += w * t * t
		}
	}
	return d2
}

// neighbors selects by §4.3 from the squared distances: the N nearest, or
// all within R (1-NN when none is).
func (b *Base) neighbors(d2 []float64) []neighbor {
	if b.cfg.R > 0 {
		r2 := b.cfg.R * b.cfg.R
		var in []neighbor
		best := 0
		for i, d := range d2 {
			if d <= r2 {
				in = append(in, neighbor{math.Sqrt(d), b.waits[i]})
			}
			if d < d2[best] {
				best = i
			}
		}
		if len(in) == 0 {
			return []neighbor{{math.Sqrt(d2[best]), b.waits[best]}}
		}
		return in
	}
	n := min(b.cfg.N, len(d2))
	// A max-heap of the n best so far: most candidates lose to its top in
	// one comparison, so selection is one pass with no copying.
	// The scan runs from the newest experience back: with the Time
	// feature the recent ones tend to be the nearest, so the heap fills
	// with good candidates early and later ones are mostly rejected
	// (oldest-first, nearly every candidate displaced the top).
	h := make([]neighbor, 0, n)
	newest := b.slot(b.added - 1)
	for _, span := range [2][2]int{{newest, 0}, {len(d2) - 1, newest + 1}} {
		for i := span[0]; i >= span[1]; i-- {
			d := d2[i]
			if len(h) < n {
				h = append(h, neighbor{d, b.waits[i]})
				up(h, len(h)-1)
			} else if d < h[0].d {
				h[0] = neighbor{d, b.waits[i]}
				down(h, 0)
			}
		}
	}
	for i := range h {
		h[i].d = math.Sqrt(h[i].d)
	}
	return h
}

func up(h []neighbor, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if h[p].d >= h[i].d {
			return
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func down(h []neighbor, i int) {
	for {
		l, m := 2*i+1, i
		if l < len(h) && h[l].d > h[m].d {
			m = l
		}
		if r := l + 1; r < len(h) && h[r].d > h[m].d {
			m = r
		}
		if m == i {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// tinyWeights is the sum of kernel weights below which estimate scales
// them up: 2^-900, 122 binary orders of magnitude above the subnormal
// range, reached only when the nearest neighbour is more than 24 kernel
// widths away (exp(-24.96²) = 2^-900).
const tinyWeights = 0x1p-900

// estimate is the kernel regression of §4.4: E = Σ K·w / Σ K with
// K(d) = exp(−(d/k)²), falling back to equal weights when every kernel
// weight underflows to 0. what is Config.Estimate: "mean" is E itself,
// "geomean" the same average of ln(max(w, geoFloor)) exponentiated,
// "median" the kernel-weighted median of the waits.
func estimate(nb []neighbor, width float64, level int, empirical bool, what string) Prediction {
	k := make([]float64, len(nb))
	var sk float64
	for i, n := range nb {
		k[i] = math.Exp(-sq(n.d / width))
		sk += k[i]
	}
	if sk > 0 && sk < tinyWeights {
		// Weights this small are subnormal or near it, where a product
		// k·w keeps a few bits: one weight of 5e-324 made a wait of 4.75
		// an estimate of 5. The estimate is a ratio, so the weights are
		// scaled by exp of the nearest one's (d/k)², which keeps their
		// ratios and makes the largest 1.
		least := math.Inf(1)
		for _, n := range nb {
			least = min(least, sq(n.d/width))
		}
		sk = 0
		for i, n := range nb {
			k[i] = math.Exp(least - sq(n.d/width))
			sk += k[i]
		}
	}
	if sk == 0 || math.IsNaN(sk) {
		for i := range k {
			k[i] = 1
		}
		sk = float64(len(nb))
	}
	var e float64
	switch what {
	case "median":
		e = weightedMedian(nb, k)
	case "geomean":
		for i, n := range nb {
			e += k[i] * math.Log(max(n.wait, geoFloor))
		}
		e = math.Exp(e / sk)
	default:
		for i, n := range nb {
			e += k[i] * n.wait
		}
		e /= sk
	}
	p := Prediction{Wait: math.Max(e, 0), Level: level, Neighbors: len(nb)}
	if len(nb) < 2 {
		// One neighbour has no spread: both rules would give ±0, a promise
		// of certainty from a single observation. Karnak's interval is +∞
		// when σ is undefined (§4.4 [S]), as a sample deviation of one
		// value is. This happens with a base of one experience, or in
		// radius mode when the 1-NN fallback is taken.
		p.HalfWidth = math.Inf(1)
		return p
	}
	if empirical {
		p.HalfWidth = weightedResidualQuantile(nb, k, e, float64(level)/100)
	} else {
		var v float64
		for i, n := range nb {
			v += k[i] * sq(n.wait-e)
		}
		sigma := math.Sqrt(v / sk)
		if math.IsNaN(sigma) {
			p.HalfWidth = math.Inf(1)
		} else {
			p.HalfWidth = z(level) * sigma
		}
	}
	return p
}

// weightedQuantile is the smallest of vals whose cumulative weight k, in
// ascending order of vals, reaches the fraction q of the weights' total
// (the lower one when it ends exactly at a value). A value of weight 0 is
// never taken for having reached it: with subnormal weights q times the
// total may round to 0.
func weightedQuantile(vals, k []float64, q float64) float64 {
	type vw struct{ v, w float64 }
	vs := make([]vw, len(vals))
	var total float64
	for i, v := range vals {
		vs[i] = vw{v, k[i]}
		total += k[i]
	}
	slices.SortFunc(vs, func(a, b vw) int { return cmp.Compare(a.v, b.v) })
	var c float64
	for _, x := range vs {
		c += x.w
		if c >= q*total && c > 0 {
			return x.v
		}
	}
	return vs[len(vs)-1].v
}

// weightedMedian is the kernel-weighted median of the neighbours' waits.
func weightedMedian(nb []neighbor, k []float64) float64 {
	w := make([]float64, len(nb))
	for i, n := range nb {
		w[i] = n.wait
	}
	return weightedQuantile(w, k, 0.5)
}

// weightedResidualQuantile is the smallest |wait − e| whose cumulative
// kernel weight reaches the fraction q of the total.
func weightedResidualQuantile(nb []neighbor, k []float64, e, q float64) float64 {
	r := make([]float64, len(nb))
	for i, n := range nb {
		r[i] = math.Abs(n.wait - e)
	}
	return weightedQuantile(r, k, q)
}
