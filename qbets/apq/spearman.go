package apq

import (
	"cmp"
	"math"
	"slices"
)

// Spearman is the rank correlation of x and y (equal lengths): the Pearson
// correlation of their ranks, ties given their average rank (spec §2.4
// [R]). It is 0 when either series is constant or shorter than 2, so a
// constant feature gets weight 0.
func Spearman(x, y []float64) float64 {
	rx := ranks(x, nil, nil)
	ry := ranks(y, nil, nil)
	return pearson(rx, ry)
}

// ranks writes the average ranks (1-based) of x into out and returns it;
// order is scratch space (both may be nil).
func ranks(x, out []float64, order []int) []float64 {
	n := len(x)
	out = slices.Grow(out[:0], n)[:n]
	order = slices.Grow(order[:0], n)[:n]
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(x[a], x[b]) })
	for i := 0; i < n; {
		j := i + 1
		for j < n && x[order[j]] == x[order[i]] {
			j++
		}
		r := float64(i+j+1) / 2 // mean of ranks i+1..j
		for k := i; k < j; k++ {
			out[order[k]] = r
		}
		i = j
	}
	return out
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
