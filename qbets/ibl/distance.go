package ibl

import "math"

// valueRange is the span of a linear feature over the experience base; the HEOM
// distance divides differences by Max − Min (§4.2).
type valueRange struct{ Min, Max float64 }

// heom is the weighted Heterogeneous Euclidean-Overlap Metric of §4.2:
//
//	D(x,y) = sqrt( Σ_f w_f · d_f(x,y)² )
//
// with d_f = 1 when either value is unknown, the overlap metric (0 or 1)
// for nominal and bool features, and |x−y| / (max−min) for linear ones
// (0 when the range is empty). x, y, w, kinds and ranges are indexed by
// feature and must have the same length.
func heom(kinds []kind, x, y []Value, w []float64, ranges []valueRange) float64 {
	var s float64
	for f, k := range kinds {
		s += w[f] * sq(featureDistance(k, x[f], y[f], ranges[f].Max-ranges[f].Min))
	}
	return math.Sqrt(s)
}

func featureDistance(k kind, x, y Value, span float64) float64 {
	if !x.Known || !y.Known {
		return 1
	}
	switch k {
	case nominal:
		if x.S == y.S {
			return 0
		}
		return 1
	case boolean:
		if x.B == y.B {
			return 0
		}
		return 1
	}
	if span <= 0 {
		return 0
	}
	// A query outside the base's range gives d > 1, as in the paper's
	// formula; it is not clamped.
	return math.Abs(x.F-y.F) / span
}

func sq(x float64) float64 { return x * x }
