package main

import (
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// meanBefore is statsOf's mean as computed before its one-pass sum: Σ|x|
// saturating at 2^53, the list sorted if it got there, then the float sum
// one wait at a time.
func meanBefore(w []int64) float64 {
	var abs uint64
	for _, x := range w {
		if abs < 1<<53 {
			abs += min(uint64(max(x, -x)), 1<<53)
		}
	}
	if abs >= 1<<53 {
		slices.Sort(w)
	}
	var sum float64
	for _, x := range w {
		sum += float64(x)
	}
	return sum / float64(len(w))
}

// TestStatsOfMeanRapid holds statsOf's mean, bit for bit, to meanBefore:
// small waits (the integer sum), waits near the bound n·max|x| < 2^53 on
// either side, waits around 2^53 beside small ones (where the float sum
// rounds: a bound of 2^62 fails), and extremes (MinInt64, MaxInt64: the
// sorted float sum).
func TestStatsOfMeanRapid(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 200).Draw(rt, "n")
		edge := int64(1<<53) / int64(n)
		gen := rapid.OneOf(rapid.Int64Range(-1, 1<<20), rapid.Int64Range(edge-2, edge+2), rapid.Int64Range(-edge-2, -edge+2),
			rapid.Int64Range(1<<50, 1<<58), rapid.Int64(), rapid.Just(int64(math.MinInt64)), rapid.Just(int64(math.MaxInt64)))
		w := rapid.SliceOfN(gen, n, n).Draw(rt, "w")
		want := meanBefore(slices.Clone(w))
		if got := statsOf(slices.Clone(w)).Mean; math.Float64bits(got) != math.Float64bits(want) {
			rt.Fatalf("mean %v (%x), before %v (%x)", got, math.Float64bits(got), want, math.Float64bits(want))
		}
	})
}

// TestStatsOfMeanRounds: lists whose float sum rounds (2^53 + 1 is
// 2^53), whose integer sum would not, and the bound's two sides. The
// four waits near 2^52 (n·max|x| < 2^54, Σ|x| > 2^53) round twice in
// the sorted float sum, to 2^54 − 4, once as an integer sum, to 2^54 − 6:
// a bound of 2^54 fails.
func TestStatsOfMeanRounds(t *testing.T) {
	for _, w := range [][]int64{
		{1 << 53, 1, 1}, {1, 1 << 53, 1}, {1<<53 - 1, 1, 1}, {-(1 << 53), -1, -1},
		{(1<<53 - 1) / 3, (1<<53 - 1) / 3, (1<<53 - 1) / 3}, {(1<<53-1)/3 + 1, (1<<53-1)/3 + 1, 1},
		{math.MaxInt64, math.MinInt64, 3}, {math.MinInt64}, {0}, {-1, -1},
		{1<<52 - 3, 1<<52 - 1, 1<<52 - 1, 1<<52 - 1}, {-(1<<52 - 1), -(1<<52 - 3), -(1<<52 - 1), -(1<<52 - 1)},
	} {
		want := meanBefore(slices.Clone(w))
		if got := statsOf(slices.Clone(w)).Mean; math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("%v: mean %v, before %v", w, got, want)
		}
	}
}
