package rangeset

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkRangeSetPredict is one range-set prediction for a key with 500
// finished jobs (runtimes spread so that the relevant history reaches far
// back) and 25 load functions.
func BenchmarkRangeSetPredict(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	h := new(History)
	k := Key{User: 1, Size: 64}
	for range 500 {
		if err := h.Add(LoadSample{Key: k, Runtime: 100 + 5000*rng.Float64(), Load: rng.Float64()}); err != nil {
			b.Fatal(err)
		}
	}
	fs := make([]LoadFunc, 25)
	for i := range fs {
		fs[i] = LoadFunc{A: 1000 * rng.Float64(), B: 100 * rng.Float64()}
	}
	p := Predictor{Funcs: fs, History: h}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := p.Predict(k, 0.7); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "predictions/s")
}
