package varq

import "testing"

// BenchmarkTrajectory12h measures a 12 h trajectory at 30 s steps (1440
// points) over a cheap forecaster; the DESIGN budget is ≤ 1 ms.
func BenchmarkTrajectory12h(b *testing.B) {
	f := &shiftingForecaster{cut: 21600, hi: 0.7, lo: 0.3}
	r := Request{Nodes: 4, Walltime: 3600, Start: 43200}
	buf := make([]Point, 0, 1440)
	b.ReportAllocs()
	for b.Loop() {
		var err error
		buf, err = AppendTrajectory(buf[:0], f, r, 0, 0)
		if err != nil || len(buf) != 1440 {
			b.Fatal(len(buf), err)
		}
		_ = PlanLatest(buf, r, 0.5)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/trajectory")
}
