package parametric

import (
	"math"
	"testing"
)

// Brevik 2006 note §4 K vectors (scipy nct.ppf).
func TestToleranceFactorVectors(t *testing.T) {
	ns := []int{10, 30, 59, 100, 1000, 10000}
	rows := []struct {
		q, c float64
		k    []float64
	}{
		{0.95, 0.95, []float64{2.91096, 2.21984, 2.02589, 1.92654, 1.72726, 1.67034}},
		{0.95, 0.99, []float64{3.73831, 2.51549, 2.20811, 2.05629, 1.76247, 1.68100}},
		{0.75, 0.95, []float64{1.46524, 1.05845, 0.93501, 0.86963, 0.73325, 0.69282}},
		{0.50, 0.95, []float64{0.57968, 0.31022, 0.21762, 0.16604, 0.05206, 0.01645}},
	}
	for _, r := range rows {
		tf := ToleranceFactors{Q: r.q, C: r.c}
		for i, n := range ns {
			k, ok := ToleranceFactor(n, r.q, r.c)
			if !ok || math.Abs(k-r.k[i]) > 6e-5 {
				t.Errorf("ToleranceFactor(%d, %v, %v) = %.5f, note %.5f", n, r.q, r.c, k, r.k[i])
			}
			// The memo uses Natrella above n = 1000: still within 1e-4 relative.
			km, _ := tf.K(n)
			if math.Abs(km-r.k[i]) > 1e-4*r.k[i]+6e-5 {
				t.Errorf("ToleranceFactors.K(%d) at (%v, %v) = %.5f, note %.5f", n, r.q, r.c, km, r.k[i])
			}
		}
	}
	// Natrella is about 1% low at n = 10 (spec: 2.875 vs 2.911).
	if kn, _ := NatrellaFactor(10, 0.95, 0.95); math.Abs(kn-2.875) > 0.002 {
		t.Errorf("NatrellaFactor(10) = %.4f, spec 2.875", kn)
	}
	if _, ok := ToleranceFactor(1, 0.95, 0.95); ok {
		t.Error("factor for n = 1")
	}
}
