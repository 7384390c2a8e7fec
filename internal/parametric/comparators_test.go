package parametric

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestWeibullFitRecovers(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const k0, l0 = 0.7, 5000.0
	ws := make([]int64, 20000)
	for i := range ws {
		ws[i] = max(int64(math.Round(l0*math.Pow(-math.Log(1-r.Float64()), 1/k0))), 1) - 1 // w+1 ≥ 1, as the fit assumes
	}
	k, l, ok := WeibullFit(ws)
	if !ok || math.Abs(k-k0) > 0.03 || math.Abs(l-l0)/l0 > 0.05 {
		t.Fatalf("fit k=%v λ=%v, generated k=%v λ=%v", k, l, k0, l0)
	}
}

func TestLogNormalBoundAboveQuantile(t *testing.T) {
	// Natrella K exceeds z_q and tends to it as n grows.
	b100, _ := LogNormalBound(100, 0, 1, 0.95, 0.95)
	b1e6, _ := LogNormalBound(1_000_000, 0, 1, 0.95, 0.95)
	zq := 1.6448536269514722
	if !(b100 > b1e6 && math.Abs(math.Log1p(b1e6)-zq) < 0.01) {
		t.Fatalf("bounds %v %v", b100, b1e6)
	}
}

func TestLogUniformQuantile(t *testing.T) {
	if got := LogUniformQuantile(0, 99, 0.5); math.Abs(got-9) > 1e-9 {
		t.Fatalf("median of logU[0, ln 100] − 1 = %v, want 9", got)
	}
}

// The log-normal bound is a level-C bound: over many samples of n = 30
// exactly log-normal waits (w+1 log-normal), it covers the true 0.95
// quantile in 95% of trials, within 3 binomial standard errors (±0.015 at
// 2000 trials). The Natrella factor, 1–2% low at n = 30, would still pass;
// the MLE σ in place of s would not be caught either — this pins the level,
// the vector test pins the factor.
func TestLogNormalBoundCoverage(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	const trials, n, mu, sigma = 2000, 30, 6.0, 2.0
	trueQ := math.Expm1(mu + sigma*1.6448536269514722)
	k, _ := ToleranceFactor(n, 0.95, 0.95)
	covered := 0
	for range trials {
		var sum, sum2 float64
		for range n {
			y := mu + sigma*r.NormFloat64()
			sum += y
			sum2 += y * y
		}
		m := sum / n
		s := math.Sqrt((sum2 - n*m*m) / (n - 1))
		if LogNormalBoundK(k, m, s) >= trueQ {
			covered++
		}
	}
	cov := float64(covered) / trials
	if math.Abs(cov-0.95) > 3*math.Sqrt(0.95*0.05/trials) {
		t.Fatalf("coverage %.4f, want 0.95 ± %.4f", cov, 3*math.Sqrt(0.95*0.05/trials))
	}
}

func TestWeibullFitDegenerate(t *testing.T) {
	if _, _, ok := WeibullFit([]int64{5}); ok {
		t.Error("fit from one value")
	}
	if _, _, ok := WeibullFit([]int64{7, 7, 7}); ok {
		t.Error("fit from equal values")
	}
	// Exponential waits (k = 1): the 0.95 quantile is λ·ln 20.
	k, l, ok := WeibullFit([]int64{0, 1, 3, 10, 30, 100, 300, 1000})
	if !ok || k <= 0 || l <= 0 || WeibullQuantile(k, l, 0.95) <= 0 {
		t.Errorf("fit k=%v λ=%v ok=%v", k, l, ok)
	}
}
