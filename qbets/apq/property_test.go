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

// The weights from the kept column orders (sortedCol) are those of ranks
// sorting every column again, bit for bit, whatever the additions between
// two refreshes: few (re-placed one by one), many (a full sort), a ring
// that wraps, values with ties.
func TestWeightsIncremental(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p, err := New(Config{History: rapid.IntRange(2, 40).Draw(t, "history")})
		if err != nil {
			t.Fatal(err)
		}
		small := rapid.Float64Range(0, 4)
		for round := rapid.IntRange(1, 20).Draw(t, "rounds"); round > 0; round-- {
			for n := rapid.IntRange(0, 100).Draw(t, "adds"); n > 0; n-- {
				var pt Point
				for i := range pt.F {
					pt.F[i] = math.Floor(small.Draw(t, "f"))
				}
				if err := p.Add(pt, math.Floor(rapid.Float64Range(0, 5).Draw(t, "wait"))); err != nil {
					t.Fatal(err)
				}
			}
			if p.Len() == 0 {
				continue
			}
			got, _ := p.Weights()
			rw := ranks(p.waits, nil, nil)
			var want [numFeatures]float64
			var sum float64
			for i := range numFeatures {
				col := make([]float64, len(p.slots))
				for s := range p.slots {
					col[s] = p.slots[s].pt.F[i]
				}
				want[i] = math.Abs(pearson(ranks(col, nil, nil), rw))
				sum += want[i]
			}
			if sum == 0 {
				for i := range want {
					want[i] = 1
				}
			}
			if got != want {
				t.Fatalf("weights %v, from scratch %v", got, want)
			}
		}
	})
}

// A NaN feature is refused: it has no place in a column's order, and the
// kept orders of the weights would rank it unlike a fresh sort.
func TestAddRefusesNaNFeature(t *testing.T) {
	p, err := New(Config{History: 4})
	if err != nil {
		t.Fatal(err)
	}
	var pt Point
	pt.F[3] = math.NaN()
	if err := p.Add(pt, 1); err == nil || p.Len() != 0 {
		t.Errorf("NaN feature: err %v, history %d", err, p.Len())
	}
}
