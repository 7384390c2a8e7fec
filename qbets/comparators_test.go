package qbets

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
