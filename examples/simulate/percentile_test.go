package main

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestStatsOfEveryN checks the median and 95th percentile that statsOf
// selects (the second among the part the first left above it) against a
// full sort for every length from 1 to 700, where the ranks ceil(q·n)−1
// take every position relative to each other, on several value shapes.
func TestStatsOfEveryN(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 1; n <= 700; n++ {
		for shape := range 5 {
			w := make([]int64, n)
			for i := range w {
				switch shape {
				case 0:
					w[i] = rng.Int64N(3) // ties
				case 1:
					w[i] = int64(i)
				case 2:
					w[i] = int64(n - i)
				case 3:
					w[i] = int64(i % 7) // organ-pipe-like repeats
				default:
					w[i] = rng.Int64N(1000) - 1
				}
			}
			s := slices.Sorted(slices.Values(w))
			k50 := max(0, min(int(math.Ceil(0.5*float64(n)))-1, n-1))
			k95 := max(0, min(int(math.Ceil(0.95*float64(n)))-1, n-1))
			got := statsOf(slices.Clone(w))
			if got.Median != float64(s[k50]) || got.P95 != float64(s[k95]) {
				t.Fatalf("n %d shape %d: median %v p95 %v, sorted %d %d", n, shape, got.Median, got.P95, s[k50], s[k95])
			}
		}
	}
}

// Property: nth leaves w partitioned around its result (w[:k] ≤ w[k] ≤
// w[k+1:]), a permutation of the input, so that a second selection in
// w[k:] gives the same value as a full sort, for any list and ranks.
func TestNthProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := rapid.SliceOfN(rapid.Int64Range(-3, 40), 1, 400).Draw(t, "w")
		n := len(w)
		k := rapid.IntRange(0, n-1).Draw(t, "k")
		k2 := rapid.IntRange(k, n-1).Draw(t, "k2")
		s := slices.Sorted(slices.Values(w))
		c := slices.Clone(w)
		if v := nth(c, k); v != s[k] {
			t.Fatalf("nth(%d) = %d, sorted %d", k, v, s[k])
		}
		for i, x := range c {
			if i < k && x > c[k] || i > k && x < c[k] {
				t.Fatalf("not partitioned at %d: %v", k, c)
			}
		}
		if !slices.Equal(slices.Sorted(slices.Values(c)), s) {
			t.Fatalf("not a permutation")
		}
		if v := nth(c[k:], k2-k); v != s[k2] {
			t.Fatalf("second nth(%d) = %d, sorted %d", k2, v, s[k2])
		}
	})
}
