package predict_test

import (
	"math"
	"math/big"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/batchq/batchq/sched/predict"
)

// bigMetric is the window's average or median computed in big integers,
// rounded toward zero as int64 division rounds.
func bigMetric(metric string, runs []int64) int64 {
	xs := runs
	if metric == "median" {
		xs = slices.Clone(runs)
		slices.Sort(xs)
		k := len(xs)
		if k%2 == 1 {
			return xs[k/2]
		}
		xs = xs[k/2-1 : k/2+1]
	}
	sum := new(big.Int)
	for _, x := range xs {
		sum.Add(sum, big.NewInt(x))
	}
	return sum.Quo(sum, big.NewInt(int64(len(xs)))).Int64()
}

// The average (and the median of an even window) of run times near
// ±2^63 is their average, not a wrapped sum: two jobs of 2^62 s averaged
// −2^62 + 6 before the sum was kept in 128 bits, with either metric and
// either window path (EASY++'s pair or the general loop).
func TestHistoryMeanNoWrap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 6).Draw(t, "window")
		metric := rapid.SampledFrom([]string{"average", "median"}).Draw(t, "metric")
		edge := rapid.SampledFrom([]int64{1 << 62, math.MaxInt64, math.MinInt64, -1 << 62, 0})
		runs := make([]int64, n)
		for i := range runs {
			runs[i] = edge.Draw(t, "edge") + rapid.Int64Range(-1000, 1000).Draw(t, "off")
		}
		h, err := predict.NewUserHistory(predict.HistoryConfig{Window: n, Metric: metric})
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range runs {
			h.Terminated(pj(1, int64(i), r, math.MaxInt64), int64(i))
		}
		if got, want := h.Predict(pj(1, 100, 0, math.MaxInt64), 100), bigMetric(metric, runs); got != want {
			t.Fatalf("%s of %v: %d, want %d", metric, runs, got, want)
		}
	})
}

func TestHistoryFallbackNoWrap(t *testing.T) {
	// The relative fallback of an estimate of 2^63 − 1 with every past job
	// accurate is the estimate; float64(e) is 2^63, which converted back
	// wrapped to −2^63.
	h, err := predict.NewUserHistory(predict.HistoryConfig{Window: 5, RelativeFallback: true})
	if err != nil {
		t.Fatal(err)
	}
	h.Terminated(pj(1, 1, math.MaxInt64, math.MaxInt64), 1)
	if p := h.Predict(pj(1, 4, 0, math.MaxInt64), 4); p != math.MaxInt64 {
		t.Errorf("relative fallback of 2^63 − 1 at accuracy 1: %d, want 2^63 − 1", p)
	}
	// Nor is a negative estimate's fallback below it: float64(−(2^63 − 1))
	// is −2^63, which converted back was −2^63 (FuzzPredictors).
	if p := h.Predict(pj(1, 4, 0, -math.MaxInt64), 4); p != -math.MaxInt64 {
		t.Errorf("relative fallback of −(2^63 − 1) at accuracy 1: %d, want −(2^63 − 1)", p)
	}
}

func TestX2NoWrap(t *testing.T) {
	cases := []struct{ est, want int64 }{
		{1 << 61, 1 << 62},
		{1 << 62, math.MaxInt64},
		{math.MaxInt64, math.MaxInt64},
		{-1, -2},
		{math.MinInt64, -math.MaxInt64},
	}
	for _, c := range cases {
		if p := (predict.X2{}).Predict(pj(1, 1, 1, c.est), 0); p != c.want {
			t.Errorf("X2 of estimate %d: %d, want %d", c.est, p, c.want)
		}
		if p := (predict.X2{P: predict.Perfect{}}).Predict(pj(1, 1, c.est, 1), 0); p != c.want {
			t.Errorf("X2 of Perfect, run time %d: %d, want %d", c.est, p, c.want)
		}
	}
}
