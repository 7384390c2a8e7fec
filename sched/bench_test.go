package sched_test

import (
	"compress/gzip"
	"context"
	"io"
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
