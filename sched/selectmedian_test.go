package sched

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestSelectMedian holds selectMedian, the summary-only fold's median by
// selection, to median's sort: many ties (most reservations are kept to
// the second), sorted, reversed and random orders, odd and even lengths.
func TestSelectMedian(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 400).Draw(t, "n")
		span := rapid.IntRange(1, 1000).Draw(t, "span")
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(rapid.IntRange(0, span).Draw(t, "x"))
		}
		switch rapid.IntRange(0, 2).Draw(t, "order") {
		case 1:
			slices.Sort(xs)
		case 2:
			slices.Sort(xs)
			slices.Reverse(xs)
		}
		want := median(slices.Clone(xs))
		if got := selectMedian(xs); got != want {
			t.Fatalf("selectMedian %v, median %v", got, want)
		}
	})
}
