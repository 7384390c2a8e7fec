package interval

import (
	"math"
	"testing"
)

// Worked by hand: {1, 3} has mean 2 and s.d. √2; t(0.975, 1) = 12.7062,
// so the half-width is 12.7062. {2, 4, 6, 8}: mean 5, s.d. √(20/3),
// t(0.975, 3) = 3.18245, half-width 3.18245·√(20/3)/2 = 4.10857.
func TestMean95(t *testing.T) {
	for _, c := range []struct {
		xs         []float64
		mean, half float64
	}{
		{[]float64{1, 3}, 2, 12.7062},
		{[]float64{2, 4, 6, 8}, 5, 4.10857},
	} {
		m, h := Mean95(c.xs)
		if m != c.mean || math.Abs(h-c.half) > 1e-4 {
			t.Errorf("Mean95(%v) = %v ± %v, want %v ± %v", c.xs, m, h, c.mean, c.half)
		}
	}
	if m, h := Mean95([]float64{7}); m != 7 || !math.IsNaN(h) {
		t.Errorf("one value: %v ± %v, want 7 ± NaN", m, h)
	}
	if m, _ := Mean95(nil); !math.IsNaN(m) {
		t.Errorf("no value: mean %v, want NaN", m)
	}
}
