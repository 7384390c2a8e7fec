package sched_test

import (
	"context"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// Conservative backfilling on CTC-SP2's 338 batch nodes of one core
// (issue 34: the whole log did not finish in 900 s), over the log's
// first 2,000, 5,000 and 15,000 jobs as read (swf.ReadFile, every job): the
// prefixes the profiles and callgrind counts of sched/bench_test.go's
// notes are taken on.
func benchCTC338(b *testing.B, n int) {
	benchNodesConservative(b, tracetest.CTC, n, []swf.Node{{Count: 338, Cores: 1}})
}

// benchNodesConservative runs conservative backfilling on nodes over the
// trace's first n jobs as read (swf.ReadFile, every job), its reading
// not timed.
func benchNodesConservative(b *testing.B, trace string, n int, nodes []swf.Node) {
	_, jobs, err := swf.ReadFile(tracetest.Path(b, trace))
	if err != nil {
		b.Fatal(err)
	}
	jobs = jobs[:min(len(jobs), n)]
	b.ResetTimer()
	for b.Loop() {
		c := preset("Conservative")(0)
		c.MachineSize, c.Nodes, c.KeepShares = 0, nodes, true
		if _, err := sched.Run(context.Background(), c, jobs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(jobs))*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}

func BenchmarkNodesCTC338Conservative2k(b *testing.B)  { benchCTC338(b, 2_000) }
func BenchmarkNodesCTC338Conservative5k(b *testing.B)  { benchCTC338(b, 5_000) }
func BenchmarkNodesCTC338Conservative15k(b *testing.B) { benchCTC338(b, 15_000) }

// The whole log (77k jobs): it did not finish in 900 s of wall time (141
// s of CPU, load 11–17) before the cuts of 2026-12-01.
func BenchmarkNodesCTC338Conservative(b *testing.B) { benchCTC338(b, 1<<30) }
