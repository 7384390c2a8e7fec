package forecast

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// Measured costs of earlier versions (the package doc gives the latest run).
//
// One forecast is one sched simulation of the running and waiting jobs,
// O((r + q) log(r + q)) events plus EASY's backfilling scans, stopped as
// soon as every job asked about has started (what happens later cannot
// move their starts: TestEarlyStop checks them against the simulation
// run to its end); Online asks about one job, so a forecast no longer
// plays every running job to its end. Online skips the simulation when
// the job and every job waiting ahead of it fit in the free processors
// (it would start them all at once), and adds the ladder's work per
// question: one 26×26 Cholesky factorization (after a learn) and two
// triangular solves for the question's features, which serve all 29
// outputs (Xᵀy_o · (XᵀX)⁻¹x; solving every output's coefficients, as
// before the 26 features, cost 2d² per output and was half of
// BenchmarkOnline). Measured as CPU time (getrusage; the 2-core machine
// was shared, load average 4–9; before/after pairs run alternately or
// side by side) with go test -bench . -cpu 1: a forecast of every waiting
// job of a 1,000-job snapshot on 1,024 processors (BenchmarkForecast1000,
// which asks about every job, so the simulation runs nearly to its end)
// 3.0–3.6 ms (budget 10 ms), 0.61 MB and 1,094 allocations; Online over a
// busy synthetic log of 20,000 jobs on 64 processors (BenchmarkOnline, a
// forecast and a model update per job) 30–39 µs per job (50–52 with 19
// features and the per-output solve). Over the archive logs with the
// command examples/forecast (-predictors forecast, CPU time by
// /usr/bin/time, parse and replay included, the 19-feature version beside
// it at the same time): KTH-SP2 (28k jobs) 1.8 s (1.9 before); SDSC-BLUE
// (243k jobs) 38.1 s (37.0 user, 1.1 system; 190 MB peak; 39.5 before),
// 31 s per 200k jobs; CEA-Curie (313k jobs) 75.6 s (73.6 user; 303 MB
// peak; 78.4 before), 48 s per 200k jobs, within the budget of 60 s for a
// 200k-job log. With the per-queue ladders (two more model updates per
// started job, and three distributions per question where a queue has its
// own fit), TestExperiment's replays, before and after run one after the
// other (/usr/bin/time, user CPU, load average 4–9): CEA-Curie, which has
// no queues, 58.5 and 64.9 s before, 50.0 (two ladders) and 54.9 s after;
// SDSC-BLUE 22.3 and 27.0 s before, 24.5 and 27.4 s after; BenchmarkOnline
// (-benchtime 3x, no queues) 33.6 µs/job before, 30.1 and 41.8 after: within
// the noise of the shared machine. What remains of a Curie replay is mostly the simulation
// itself (sched's loading, arrivals, starts and EASY passes over the
// hundreds of jobs its machine runs at once, with their allocations and
// garbage collection).
//
// The package doc's figures until the node path's were measured (c71a4a0):
// every waiting job of a 1,000-job snapshot 2.1 ms; 22 s per 200k jobs on
// SDSC-BLUE (243k: 26.5 s), 40 s on CEA-Curie (313k: 63.2 s).
//
// The node path (2026-11-30, load 4–9, the apq example's Table V running
// beside): go test -bench Forecast1000 -benchtime 20x -cpu 1, three runs,
// one pool 1.23–1.29 cpu-ms/op (0.64 MB, 1,102 allocations), 64 nodes of
// 16 cores 3.58–3.68 (0.88 MB, 2,325); -bench Online -benchtime 2x, one
// pool 22.9–26.5 cpu-µs/job, 8 nodes of 8 cores 33.0–40.4 (every question
// simulated: startsNow is for one pool); BenchmarkForecastGPUMachine
// 515–524 cpu-µs/op, 0.41 MB. examples/forecast -predictors forecast -json,
// /usr/bin/time user+system: SDSC-BLUE (243,306 jobs) 23.8 s on one pool,
// 36.9 s with -nodes of 144 nodes of 8 cores (Blue Horizon's; 230 MB
// peak, 180 on one pool), within ×2 0.6493 and 0.6491; the Alibaba GPU
// trace's default pod list (8,152 pods, convert -from alibaba) on its
// 1,523 nodes 2.01–2.39 s (one pool of its cores: 0.20–0.23 s, where
// startsNow answers most questions without a simulation). Its profile
// (TestReadmeGPUSlice -cpuprofile): sched.New 0.60 s of 1.91 s, nearly all
// in building the machine (newMachine: its per-node slices grown by
// append, about 6,200 GPUs); the forward simulation's placements 0.34 s.
// A new sched.Sim per question is what sched offers (no reset); a
// newMachine that sizes its slices first measured 1.54–1.70 s against
// 2.01–2.24 s on the same list, three runs alternating, with the same
// output byte for byte (made in sched, a20138e: the package doc's 38–42 s
// per 200k pods). Rechecked after it (h-rev4, TestReadmeGPUSlice's test
// binary, /usr/bin/time user+system of the whole test, three runs
// alternating, load 6–9): 1.46–1.88 s against 1.95–2.26 s before.

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
	f, err := New(Config{})
	if err != nil {
		b.Fatal(err)
	}
	benchForecast(b, f, s, time.Millisecond)
}

// BenchmarkOnline replays a busy synthetic log through Online (a forecast
// and a learned correction at every submission) and reports jobs/s.
func BenchmarkOnline(b *testing.B) {
	benchOnline(b, Config{}, 64)
}

// benchNodes is snapshot1000's machine as nodes: 64 nodes of 16 cores.
var benchNodes = []swf.Node{{Name: "n16", Count: 64, Cores: 16}}

// BenchmarkForecast1000Nodes is BenchmarkForecast1000 on a machine of
// nodes (the same 1,024 cores as 64 nodes of 16): each job's cores are
// placed on the nodes.
func BenchmarkForecast1000Nodes(b *testing.B) {
	s := snapshot1000()
	s.MachineSize = 0
	f, err := New(Config{Policy: sched.Config{Nodes: benchNodes}})
	if err != nil {
		b.Fatal(err)
	}
	benchForecast(b, f, s, time.Millisecond)
}

// gpuMachine is a machine of the Alibaba GPU trace's scale: 1,536 nodes,
// 8,192 GPUs (the trace's list has 1,523 nodes and about 6,200 GPUs in
// 27 kinds).
var gpuMachine = []swf.Node{
	{Name: "cpu", Count: 512, Cores: 32000, Memory: 262144},
	{Name: "gpu", Count: 1024, Cores: 96000, Memory: 393216, GPUs: 8, GPUModel: "G2"},
}

// BenchmarkForecastGPUMachine forecasts one waiting pod behind 100
// running ones on gpuMachine: a small question on a large machine, where
// what a simulation costs to build (sched.New: the machine's nodes and
// GPUs) is most of the forecast.
func BenchmarkForecastGPUMachine(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	s := &Snapshot{Now: 100000}
	for i := range 100 {
		j := gpuJob(int64(i+1), s.Now-rng.Int64N(3600)-60, 60, 1000*(1+rng.Int64N(16)), 1000*rng.Int64N(3), 600+rng.Int64N(7200))
		s.Running = append(s.Running, j)
	}
	slices.SortStableFunc(s.Running, func(a, b swf.Job) int { return cmp.Compare(a.Submit, b.Submit) })
	s.Waiting = []swf.Job{gpuJob(1000, s.Now, -1, 8000, 8000, 3600)}
	f, err := New(Config{Policy: sched.Config{Nodes: gpuMachine}})
	if err != nil {
		b.Fatal(err)
	}
	benchForecast(b, f, s, time.Microsecond)
}

// BenchmarkOnlineNodes is BenchmarkOnline on a machine of nodes (the same
// 64 processors as 8 nodes of 8 cores): every question is simulated (on
// one pool Online skips those the simulation would start at once).
func BenchmarkOnlineNodes(b *testing.B) {
	benchOnline(b, Config{Policy: sched.Config{Nodes: []swf.Node{{Name: "n8", Count: 8, Cores: 8}}}}, 0)
}

// benchForecast times f's forecast of s and reports the CPU time an
// operation in unit (cpu-ms/op or cpu-µs/op).
func benchForecast(b *testing.B, f *Forecaster, s *Snapshot, unit time.Duration) {
	name := "cpu-µs/op"
	if unit == time.Millisecond {
		name = "cpu-ms/op"
	}
	ctx := context.Background()
	b.ReportAllocs()
	c0 := cpuTime()
	for b.Loop() {
		if _, err := f.Forecast(ctx, s); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-c0)/float64(unit)/float64(b.N), name)
}

// benchOnline replays a busy synthetic log of 20,000 jobs through an
// Online of cfg on a machine of size processors (0: cfg's nodes) and
// reports the CPU time a job.
func benchOnline(b *testing.B, cfg Config, size int64) {
	jobs := synthetic(b, 20000, 11)
	b.ReportAllocs()
	c0 := cpuTime()
	for b.Loop() {
		o, err := NewOnline(cfg, size)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := replay.Run(context.Background(), jobs, replay.Options{PredictAll: true}, o); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-c0)/1e3/float64(b.N*len(jobs)), "cpu-µs/job")
}
