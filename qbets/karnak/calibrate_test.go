package karnak

import (
	"math"
	"testing"
)

// TestCalWindowRanks: the interval's ends are the ⌊(m+1)α/2⌋-th and
// ⌈(m+1)(1−α/2)⌉-th smallest of m residuals, exactly where (m+1)α/2 is
// a whole number (m = 19, 39, … at 90%), which (1−0.9)/2 computed in
// floating point is not.
func TestCalWindowRanks(t *testing.T) {
	for _, c := range []struct {
		level float64
		per   int // α/2 as 1/per: the lower rank ⌊(m+1)/per⌋
	}{{0.9, 20}, {0.8, 10}, {0.5, 4}} {
		w := newCalWindow(200)
		for m := 1; m <= 120; m++ {
			w.add(2, float64(m)/100, 0) // the k-th smallest is k/100
			lo, hi := w.interval(2, 100, c.level, nil)
			wantLo, wantHi := 0.0, math.Inf(1)
			if k := (m + 1) / c.per; k >= 1 {
				wantLo = 100 * math.Exp(float64(k)/100)
			}
			if k := (m + 1) - (m+1)/c.per; k <= m { // ⌈(m+1)(1−1/per)⌉
				wantHi = 100 * math.Exp(float64(k)/100)
			}
			if math.Abs(lo-wantLo) > 1e-9 || hi != wantHi && math.Abs(hi-wantHi) > 1e-9 {
				t.Errorf("level %.1f, m %d: [%g, %g], want [%g, %g]", c.level, m, lo, hi, wantLo, wantHi)
			}
		}
	}
}
