package main

import (
	"math"
	"testing"
)

// TestSliceEndNoWrap: the progress slices between a -1 and a 2^63-1 submit
// time (a hostile log's extremes) rise from first to last without wrapping.
func TestSliceEndNoWrap(t *testing.T) {
	for _, c := range [][2]int64{{-1, math.MaxInt64}, {math.MinInt64, math.MaxInt64}, {0, 100}, {5, 5}} {
		first, last := c[0], c[1]
		prev := first
		for k := 1; k <= 50; k++ {
			e := sliceEnd(first, last, k, 50)
			if e < prev || e > last {
				t.Fatalf("first %d last %d: slice %d ends at %d (previous %d)", first, last, k, e, prev)
			}
			prev = e
		}
		if prev != last {
			t.Errorf("first %d last %d: last slice ends at %d, want %d", first, last, prev, last)
		}
	}
}
