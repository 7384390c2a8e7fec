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
			if i, ok := upperIndex(100, q, c); ok {
				t.Errorf("upperIndex(100, %v, %v) = %d, true; want ok false", q, c, i)
			}
			if i, ok := lowerIndex(100, q, c); ok {
				t.Errorf("lowerIndex(100, %v, %v) = %d, true; want ok false", q, c, i)
			}
			if lo, hi, ok := twoSidedIndex(100, q, c); ok {
				t.Errorf("twoSidedIndex(100, %v, %v) = %d, %d, true; want ok false", q, c, lo, hi)
			}
			for name, f := range map[string]func(float64, float64) int{
				"minHistoryOf": minHistoryOf, "minHistoryLower": minHistoryLower, "minHistoryTwoSided": minHistoryTwoSided,
			} {
				if n := f(q, c); n != -1 {
					t.Errorf("%s(%v, %v) = %d, want -1", name, q, c, n)
				}
			}
		}
	}
	if n := (Level{Quantile: 0.95, Confidence: 0.95}).MinHistory(); n != 59 {
		t.Errorf("Level{0.95, 0.95}.MinHistory() = %d, want 59", n)
	}
	if i, ok := (Level{Quantile: 0.95, Confidence: 0.95}).UpperIndex(59); !ok || i != 59 {
		t.Errorf("Level{0.95, 0.95}.UpperIndex(59) = %d, %v; want 59 (the largest of the minimum history), true", i, ok)
	}
	if n := minHistoryOf(math.Nextafter(1, 0), 0.95); n != -1 && n < 1e15 {
		t.Errorf("minHistoryOf(1−ε, 0.95) = %d", n)
	}
}
