package sched_test

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"unsafe"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// Benchmarks on SDSC-BLUE (243k records, 1,152 processors); they report
// simulated jobs per second.
func benchBlue(b *testing.B, variant string) {
	_, jobs, err := swf.ReadFile(tracetest.Path(b, tracetest.SDSCBlue))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := sched.Run(context.Background(), preset(variant)(1152), jobs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(jobs))*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}

func BenchmarkBlueEASY(b *testing.B)         { benchBlue(b, "EASY") }
func BenchmarkBlueEASYPlusPlus(b *testing.B) { benchBlue(b, "EASY++") }
func BenchmarkBlueConservative(b *testing.B) { benchBlue(b, "Conservative") }

// benchParseAndRun is the budget's measure: parse the plain (decompressed)
// file and simulate, per iteration; it also reports bytes allocated per
// job.
func benchParseAndRun(b *testing.B, trace string, P int64, variant string) {
	plain := filepath.Join(b.TempDir(), "trace.swf")
	gz, err := os.Open(tracetest.Path(b, trace))
	if err != nil {
		b.Fatal(err)
	}
	zr, err := gzip.NewReader(gz)
	if err != nil {
		b.Fatal(err)
	}
	out, err := os.Create(plain)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(out, zr); err != nil {
		b.Fatal(err)
	}
	out.Close()
	gz.Close()
	n := 0
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_, jobs, err := swf.ReadFile(plain)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := sched.Run(context.Background(), preset(variant)(P), jobs); err != nil {
			b.Fatal(err)
		}
		n = len(jobs)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}

func BenchmarkParseAndEASYCTC(b *testing.B)  { benchParseAndRun(b, tracetest.CTC, 512, "EASY") }
func BenchmarkParseAndEASYBlue(b *testing.B) { benchParseAndRun(b, tracetest.SDSCBlue, 1152, "EASY") }
func BenchmarkParseAndEASYPPBlue(b *testing.B) {
	benchParseAndRun(b, tracetest.SDSCBlue, 1152, "EASY++")
}

// BenchmarkBlueRetained reports the memory a finished EASY simulation of
// SDSC-BLUE keeps per simulated job (its Result), beside the trace's own
// 144 bytes per job, which the Records point into.
func BenchmarkBlueRetained(b *testing.B) {
	_, jobs, err := swf.ReadFile(tracetest.Path(b, tracetest.SDSCBlue))
	if err != nil {
		b.Fatal(err)
	}
	var before, after runtime.MemStats
	var kept int
	for b.Loop() {
		runtime.GC()
		runtime.ReadMemStats(&before)
		res, err := sched.Run(context.Background(), sched.EASY(1152), jobs)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		kept = len(res.Records)
		runtime.KeepAlive(res)
	}
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(kept), "B/job-retained")
	b.ReportMetric(float64(unsafe.Sizeof(swf.Job{})), "B/job-trace")
}

// synthetic returns n jobs on a machine of 1,024 processors at an offered
// load of about 0.7: Poisson arrivals, log-uniform run times from 1 s to
// 1 day, power-of-two sizes, estimates 1–5 times the run time.
func synthetic(n int) []swf.Job {
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	jobs := make([]swf.Job, n)
	var t float64
	for i := range jobs {
		run := int64(math.Exp(rng.Float64() * math.Log(86400)))
		size := int64(1) << rng.IntN(9)
		// mean area ≈ 51 × 7,500 s; arrivals spaced for a load near 0.7.
		t += rng.ExpFloat64() * 530
		jobs[i] = swf.Job{ID: int64(i + 1), Submit: int64(t), Wait: -1, RunTime: run, AllocProcs: size, ReqProcs: size,
			ReqTime: run * (1 + rng.Int64N(5)), User: rng.Int64N(500), Status: 1}
	}
	return jobs
}

// BenchmarkSyntheticEASY shows EASY's cost per job from 100k to 5M jobs
// (linear if ns/job stays flat) and the memory a result keeps per job.
func BenchmarkSyntheticEASY(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000, 5_000_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			jobs := synthetic(n)
			var before, after runtime.MemStats
			for b.Loop() {
				b.StopTimer() // the collections that measure memory are not the run's
				runtime.GC()
				runtime.ReadMemStats(&before)
				b.StartTimer()
				res, err := sched.Run(context.Background(), sched.EASY(1024), jobs)
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				runtime.GC()
				runtime.ReadMemStats(&after)
				runtime.KeepAlive(res)
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/job")
			b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(n), "B/job-retained")
		})
	}
}
