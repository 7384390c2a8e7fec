package ibl_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/batchq/batchq/qbets/ibl"
)

// synthBase fills a base of the default size with Table III experiences
// drawn from a fixed seed: 4 queues, power-of-two sizes, log-spread run
// times and waits. It exercises eviction (2× MaxSize inserts).
func synthBase(tb testing.TB) (*ibl.Base, *rand.Rand) {
	b, err := ibl.New(ibl.Config{Features: ibl.NotQueuedFeatures()})
	if err != nil {
		tb.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2 * ibl.DefaultMaxSize {
		if err := b.Insert(ibl.Experience{In: synthQuery(r, int64(i)*60), Wait: float64(r.IntN(86400))}); err != nil {
			tb.Fatal(err)
		}
	}
	return b, r
}

func synthQuery(r *rand.Rand, now int64) []ibl.Value {
	return []ibl.Value{
		str(fmt.Sprint("q", r.IntN(4))), num(float64(int(1) << r.IntN(8))), num(float64(int(60) << r.IntN(10))),
		num(float64(r.IntN(200))), num(float64(r.IntN(1e7))), flag(r.IntN(10) > 0), num(float64(now)),
	}
}

// BenchmarkPredict is one not-yet-queued prediction against a full base of
// 10,000 experiences (N = 56, the Normal interval).
func BenchmarkPredict(b *testing.B) {
	base, r := synthBase(b)
	qs := make([][]ibl.Value, 64)
	for i := range qs {
		qs[i] = synthQuery(r, int64(2*ibl.DefaultMaxSize)*60)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := base.Predict(qs[i%len(qs)], 90); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "predictions/s")
}

// BenchmarkInsert is one insertion into a full base (FIFO eviction and the
// range upkeep of spec K11).
func BenchmarkInsert(b *testing.B) {
	base, r := synthBase(b)
	qs := make([][]ibl.Value, 64)
	for i := range qs {
		qs[i] = synthQuery(r, int64(2*ibl.DefaultMaxSize+i)*60)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		q := qs[i%len(qs)]
		q[6] = num(float64(int64(2*ibl.DefaultMaxSize+i) * 60))
		if err := base.Insert(ibl.Experience{In: q, Wait: 100}); err != nil {
			b.Fatal(err)
		}
	}
}

// num, str and flag are known values of each kind.
func num(f float64) ibl.Value { return ibl.Value{F: f, Known: true} }
func str(s string) ibl.Value  { return ibl.Value{S: s, Known: true} }
func flag(b bool) ibl.Value   { return ibl.Value{B: b, Known: true} }
