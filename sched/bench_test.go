package sched_test

import (
	"context"
	"testing"

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
