package apq

import (
	"cmp"
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

// sortedCol is one history column's slots in ascending order of value,
// kept between weight refreshes: between two predictions usually one slot
// changes (the job that started), so re-placing the changed slots costs
// O(n) where sorting the column again cost O(n log n), and the paper
// recomputes 17 such ranks per history change (§2.4). Ties may sit in any
// order: equal values share their average rank.
type sortedCol struct{ ord []int32 }

// update re-places the slots in changed (sorted, no duplicates; slots ≥
// the previous length are new) for the column's current values col, or
// sorts all of them again when full is set.
func (c *sortedCol) update(col []float64, changed []int, full bool) {
	old := len(c.ord)
	if !full {
		for _, s := range changed {
			if s < old {
				if i := slices.Index(c.ord, int32(s)); i >= 0 {
					c.ord = slices.Delete(c.ord, i, i+1)
				}
			}
		}
		for _, s := range changed {
			i, _ := slices.BinarySearchFunc(c.ord, col[s], func(e int32, v float64) int { return cmp.Compare(col[e], v) })
			c.ord = slices.Insert(c.ord, i, int32(s))
		}
	}
	if full || len(c.ord) != len(col) {
		c.ord = c.ord[:0]
		for i := range col {
			c.ord = append(c.ord, int32(i))
		}
		slices.SortFunc(c.ord, func(a, b int32) int { return cmp.Compare(col[a], col[b]) })
	}
}

// ranks writes the average ranks (1-based) of col into out, as ranks
// does, from the kept order.
func (c *sortedCol) ranks(col, out []float64) []float64 {
	n := len(col)
	out = slices.Grow(out[:0], n)[:n]
	for i := 0; i < n; {
		j := i + 1
		for j < n && col[c.ord[j]] == col[c.ord[i]] {
			j++
		}
		r := float64(i+j+1) / 2 // mean of ranks i+1..j
		for k := i; k < j; k++ {
			out[c.ord[k]] = r
		}
		i = j
	}
	return out
}
