package apq

import (
	"math"
	"slices"
)

// ranks writes the average ranks (1-based) of x into out and returns it;
// scratch is reused space for the sort (both may be nil).
func ranks(x, out []float64, scratch []rankPair) []float64 {
	n := len(x)
	out = slices.Grow(out[:0], n)[:n]
	ps := slices.Grow(scratch[:0], n)[:n]
	for i, v := range x {
		ps[i] = rankPair{v, int32(i)}
	}
	// Sorting (value, index) pairs keeps the comparisons in cache; the
	// index breaks no ties that matter, since equal values share a rank.
	slices.SortFunc(ps, func(a, b rankPair) int {
		switch {
		case a.v < b.v:
			return -1
		case a.v > b.v:
			return 1
		}
		return 0
	})
	for i := 0; i < n; {
		j := i + 1
		for j < n && ps[j].v == ps[i].v {
			j++
		}
		r := float64(i+j+1) / 2 // mean of ranks i+1..j
		for k := i; k < j; k++ {
			out[ps[k].i] = r
		}
		i = j
	}
	return out
}

type rankPair struct {
	v float64
	i int32
}

func pearson(x, y []float64) float64 {
	n := len(x)
	if n < 2 {
		return 0
	}
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= float64(n)
	my /= float64(n)
	var sxy, sxx, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return 0
	}
	r := sxy / math.Sqrt(sxx*syy)
	return max(-1, min(1, r))
}
