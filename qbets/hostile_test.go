package qbets

import (
	"math"
	"testing"
)

// Quantiles and confidence levels outside (0, 1), NaN included, give no
// index (ok false) and the sentinel −1, never a valid-looking index
// or −2^63.
func TestIndexHelpersRejectBadLevels(t *testing.T) {
	bad := []float64{math.NaN(), 0, 1, -0.5, 1.5, math.Inf(1)}
	for _, x := range bad {
		for _, qc := range [][2]float64{{x, 0.95}, {0.95, x}} {
			q, c := qc[0], qc[1]
			if i, ok := UpperIndex(100, q, c); ok {
				t.Errorf("UpperIndex(100, %v, %v) = %d, true; want ok false", q, c, i)
			}
			if i, ok := lowerIndex(100, q, c); ok {
				t.Errorf("lowerIndex(100, %v, %v) = %d, true; want ok false", q, c, i)
			}
			if lo, hi, ok := twoSidedIndex(100, q, c); ok {
				t.Errorf("twoSidedIndex(100, %v, %v) = %d, %d, true; want ok false", q, c, lo, hi)
			}
			for name, f := range map[string]func(float64, float64) int{
				"MinHistory": MinHistory, "minHistoryLower": minHistoryLower, "minHistoryTwoSided": minHistoryTwoSided,
			} {
				if n := f(q, c); n != -1 {
					t.Errorf("%s(%v, %v) = %d, want -1", name, q, c, n)
				}
			}
		}
	}
	if n := MinHistory(0.95, 0.95); n != 59 {
		t.Errorf("MinHistory(0.95, 0.95) = %d, want 59", n)
	}
	if n := MinHistory(math.Nextafter(1, 0), 0.95); n != -1 && n < 1e15 {
		t.Errorf("MinHistory(1−ε, 0.95) = %d", n)
	}
}
