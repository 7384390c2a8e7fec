package varq

import (
	"math/rand/v2"
	"testing"

	"github.com/batchq/batchq/qbets"
)

// BenchmarkTrajectory12h measures a 12 h trajectory at 30 s steps (1440
// points) over a cheap forecaster; the DESIGN budget is ≤ 1 ms.
func BenchmarkTrajectory12h(b *testing.B) {
	f := &shiftingForecaster{cut: 21600, hi: 0.7, lo: 0.3}
	r := Request{Nodes: 4, Walltime: 3600, Start: 43200}
	benchTrajectory(b, f, r, 0)
}

// benchTrajectory times one 1440-point trajectory of r asked at now, and
// the min-overhead plan read off it, per iteration.
func benchTrajectory(b *testing.B, f Forecaster, r Request, now int64) {
	b.Helper()
	buf := make([]Point, 0, 1440)
	b.ReportAllocs()
	for b.Loop() {
		var err error
		buf, err = appendTrajectory(buf[:0], f, r, now, 0)
		if err != nil || len(buf) != 1440 {
			b.Fatal(len(buf), err)
		}
		_ = ProbabilityTrajectory(buf).PlanLatest(r, 0.5)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/trajectory")
}

// BenchmarkTrajectory12hQBETS is the same trajectory over full QBETS
// (clustering, trimming, availability) holding 20000 waits of jobs of
// mixed shapes: the forecaster VARQ really uses.
func BenchmarkTrajectory12hQBETS(b *testing.B) {
	p, err := qbets.New(qbets.Config{})
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	t := int64(0)
	for range 20000 {
		t += rng.Int64N(600)
		p.Submit(t)
		nodes := 1 << rng.IntN(8)
		wall := int64(600 * (1 + rng.IntN(48)))
		wait := int64(rng.ExpFloat64() * float64(wall) / 4)
		p.Observe(qbets.Observation{Submit: t - wait, Start: t, Nodes: nodes, Walltime: wall})
	}
	f := p // a *qbets.Predictor is a Forecaster
	r := Request{Nodes: 4, Walltime: 3600, Start: t + 43200}
	buf := make([]Point, 0, 1440)
	if buf, err = appendTrajectory(buf, f, r, t, 0); err != nil || ProbabilityTrajectory(buf).PlanMax(r).Prob < 0.5 {
		b.Fatalf("the benchmark's forecaster is silent or pessimistic: %v, %v", ProbabilityTrajectory(buf).PlanMax(r), err)
	}
	benchTrajectory(b, f, r, t)
}
