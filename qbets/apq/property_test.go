package apq

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

// Distances are weighted averages of terms in [0, 1], so they lie in
// [0, 1] whatever the weights; χ² of normalized histograms lies in [0, 2]
// and is symmetric.
func TestDistanceBounds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		unit := rapid.Float64Range(0, 1)
		var a, b, w, lo, hi [numFeatures]float64
		for i := range numFeatures {
			x := rapid.Float64Range(0, 1e6).Draw(t, "x")
			y := rapid.Float64Range(0, 1e6).Draw(t, "y")
			a[i], b[i] = x, y
			lo[i], hi[i] = min(x, y), max(x, y)
			w[i] = unit.Draw(t, "w")
		}
		if d := summaryDistance(&a, &b, &w, &lo, &hi); !(d >= 0 && d <= 1+1e-12) {
			t.Fatalf("summary distance %v outside [0, 1]", d)
		}
		var chi, wd [numDists]float64
		for i := range numDists {
			chi[i], wd[i] = unit.Draw(t, "chi"), unit.Draw(t, "wd")
		}
		d := distributionDistance(rapid.Bool().Draw(t, "req"), unit.Draw(t, "ert"), &chi, unit.Draw(t, "wr"), unit.Draw(t, "we"), &wd)
		if !(d >= 0 && d <= 1+1e-12) {
			t.Fatalf("distribution distance %v outside [0, 1]", d)
		}
		n := rapid.IntRange(1, 12).Draw(t, "bins")
		p := normalized(rapid.SliceOfN(unit, n, n).Draw(t, "p"))
		q := normalized(rapid.SliceOfN(unit, n, n).Draw(t, "q"))
		c := chiSquare(p, q)
		if !(c >= 0 && c <= 2+1e-9) || math.Abs(c-chiSquare(q, p)) > 1e-12 {
			t.Fatalf("χ²(%v, %v) = %v (reverse %v)", p, q, c, chiSquare(q, p))
		}
	})
}

func normalized(v []float64) []float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	for i := range v {
		if s > 0 {
			v[i] /= s
		}
	}
	return v
}
