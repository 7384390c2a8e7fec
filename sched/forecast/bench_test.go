package forecast

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/batchq/batchq/qbets/replay"
	"syscall"
	"time"
)

// cpuTime is the process's user+system CPU time: the machine the figures
// come from is shared, so wall time is not the benchmark's own.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// snapshot1000 is a full machine of 1,024 processors with 1,000 jobs
// waiting, sizes and estimates spread like an archive log's.
func snapshot1000() *Snapshot {
	rng := rand.New(rand.NewPCG(1, 2))
	s := &Snapshot{Now: 100000, MachineSize: 1024}
	used := int64(0)
	for i := 0; used < 1024; i++ {
		n := min(int64(1)<<rng.IntN(7), 1024-used)
		used += n
		start := s.Now - rng.Int64N(3600)
		s.Running = append(s.Running, job(int64(i+1), start-60, 60, -1, n, 600+rng.Int64N(7200), rng.Int64N(50)))
	}
	for i := range 1000 {
		s.Waiting = append(s.Waiting, job(int64(10000+i), s.Now-int64(1000-i)*10, -1, -1, int64(1)<<rng.IntN(8), 60+rng.Int64N(36000), rng.Int64N(50)))
	}
	return s
}

// BenchmarkForecast1000 forecasts every waiting job of a 1,000-job
// snapshot (one forward simulation).
func BenchmarkForecast1000(b *testing.B) {
	s := snapshot1000()
	f, _ := New(Config{})
	ctx := context.Background()
	b.ReportAllocs()
	c0 := cpuTime()
	for b.Loop() {
		if _, err := f.Forecast(ctx, s); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-c0)/1e6/float64(b.N), "cpu-ms/op")
}

// BenchmarkOnline replays a busy synthetic log through Online (a forecast
// and a learned correction at every submission) and reports jobs/s.
func BenchmarkOnline(b *testing.B) {
	jobs := synthetic(b, 20000, 11)
	b.ReportAllocs()
	c0 := cpuTime()
	for b.Loop() {
		o, _ := NewOnline(Config{}, 64)
		if _, err := replay.Run(context.Background(), jobs, replay.Options{PredictAll: true}, o); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-c0)/1e3/float64(b.N*len(jobs)), "cpu-µs/job")
}
