package qbets

// What prediction costs, and how (from the package doc). Config.Levels:
// replaying SDSC-BLUE with four (q, C) pairs costs 1.6–1.8× one
// (BenchmarkReplaySDSCBlueLevels).
//
// Performance (2-core shared machine): Predict with 100k observations has
// a median of about 50 ns (TestPredictMedian; budget 2 µs) and does not
// allocate; the whole SDSC-BLUE log (243k jobs) replays through full
// QBETS in 0.35–0.5 s (BenchmarkReplaySDSCBlueAll; budget 2 s). Histories
// are sorted blocks of 256–512 waits with a Fenwick index over the block
// sizes; the Binomial-Method index is tabulated where k(n) = n − i_up(n)
// steps.

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/batchq/batchq/internal/tracetest"
)

// filled returns a full-QBETS Predictor holding n observations of a
// queue with varied nodes and walltimes (so clustering has work to do).
func filled(n int) *Predictor {
	p, _ := New(Config{})
	r := rand.New(rand.NewPCG(1, 1))
	for i := range n {
		nodes := 1 << r.IntN(8)
		wall := int64(600 * (1 + r.IntN(24)))
		start := int64(1e9 + i) // starts in order; waits end at them
		submit := start - int64(r.ExpFloat64()*float64(wall))
		if err := p.Submit(submit); err != nil {
			panic(err)
		}
		if err := p.Observe(Observation{Submit: submit, Start: start, Nodes: nodes, Walltime: wall}); err != nil {
			panic(err)
		}
	}
	return p
}

// BenchmarkPredict100k: one Predict with 100k observations (budget: 2 µs
// median). The loop varies the request so the cluster lookup is paid.
func BenchmarkPredict100k(b *testing.B) {
	p := filled(100000)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		p.Predict(1<<(i&7), int64(600*(1+i%24)))
		i++
	}
}

// TestPredictMedian measures the median latency of single Predict calls
// (the budget is on the median, which a mean ns/op hides behind GC and
// scheduler noise on a shared machine).
func TestPredictMedian(t *testing.T) {
	if testing.Short() {
		t.Skip("timing")
	}
	p := filled(100000)
	ds := make([]time.Duration, 20001)
	for i := range ds {
		t0 := time.Now()
		p.Predict(1<<(i&7), int64(600*(1+i%24)))
		ds[i] = time.Since(t0)
	}
	slices.Sort(ds)
	t.Logf("Predict with 100k observations: median %v, p99 %v", ds[len(ds)/2], ds[len(ds)*99/100])
	if ds[len(ds)/2] > 2*time.Microsecond {
		t.Errorf("median %v > 2 µs", ds[len(ds)/2])
	}
}

// BenchmarkForecast100k: Forecast adds the lower bound.
func BenchmarkForecast100k(b *testing.B) {
	p := filled(100000)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		p.Forecast(Request{Nodes: 1 << (i & 7), Walltime: int64(600 * (1 + i%24))})
		i++
	}
}

// BenchmarkObserve: Submit + Observe per job, amortized over 100k jobs
// including re-clustering every 1000 arrivals and availability.
func BenchmarkObserve(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		filled(100000)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100000, "ns/job")
}

// BenchmarkClusterSDSCBlue: one two-level clustering of the whole
// SDSC-BLUE history (243k jobs), and one single-level clusterIntervals
// on node counts.
func BenchmarkClusterSDSCBlue(b *testing.B) {
	jobs := loadTrace(b, tracetest.SDSCBlue)
	idx := map[[2]int64]int{}
	var pairs []pairStat
	samples := make([]sample, len(jobs))
	for i, j := range jobs {
		k := [2]int64{int64(j.nodes), j.wall}
		x, ok := idx[k]
		if !ok {
			x = len(pairs)
			idx[k] = x
			pairs = append(pairs, pairStat{nodes: j.nodes, wall: j.wall})
		}
		pairs[x].n++
		pairs[x].s += float64(j.wait) + 1
		samples[i] = sample{Key: int64(j.nodes), Wait: j.wait}
	}
	b.Run("two-level", func(b *testing.B) {
		var p *partition
		for b.Loop() {
			p = fitPartition(ClusterTwoLevel, pairs, nil, 59, 10)
		}
		b.ReportMetric(float64(p.k), "clusters")
		b.ReportMetric(float64(len(pairs)), "pairs")
	})
	b.Run("nodes-samples", func(b *testing.B) {
		var c clustering
		for b.Loop() {
			c = clusterIntervals(samples, 0, 0)
		}
		b.ReportMetric(float64(c.K), "clusters")
	})
}

// BenchmarkReplaySDSCBlueAll: the whole SDSC-BLUE log as one stream
// through full QBETS (all queues merged: the worst case for the
// re-clustering cost, which grows with the full history).
func BenchmarkReplaySDSCBlueAll(b *testing.B) {
	jobs := loadTrace(b, tracetest.SDSCBlue)
	for b.Loop() {
		p, _ := New(Config{})
		replayJobs(p, jobs, len(jobs)/10)
	}
}

// BenchmarkFeedLevels: the feed of 100k jobs (Submit + Observe, full
// QBETS) into one Predictor answering one (q, C) pair, and into one
// answering four (Config.Levels). Budget: four pairs ≤ 2× one.
func BenchmarkFeedLevels(b *testing.B) {
	evs := synthFeed(100000, 9)
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"1", Config{}},
		{"4", Config{Levels: []Level{{0.5, 0.95}, {0.9, 0.9}, {0.99, 0.99}}}},
	} {
		b.Run("pairs="+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p, _ := New(c.cfg)
				for _, e := range evs {
					apply(b, p, e)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100000, "ns/job")
		})
	}
}

// BenchmarkReplaySDSCBlueLevels: the whole SDSC-BLUE replay (forecasts
// included) with one (q, C) pair and with four.
func BenchmarkReplaySDSCBlueLevels(b *testing.B) {
	jobs := loadTrace(b, tracetest.SDSCBlue)
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"1", Config{}},
		{"4", Config{Levels: []Level{{0.5, 0.95}, {0.9, 0.9}, {0.99, 0.99}}}},
	} {
		b.Run("pairs="+c.name, func(b *testing.B) {
			for b.Loop() {
				p, _ := New(c.cfg)
				replayJobs(p, jobs, len(jobs)/10)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(jobs)), "ns/job")
		})
	}
}
