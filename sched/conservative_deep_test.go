package sched

import (
	"testing"

	"github.com/batchq/batchq/swf"
)

// deepWorkload is n jobs of routesWorkload on P processors submitted a
// second apart: hundreds wait at every pass, each pass moves many of
// them a little earlier (compression), and a settled job's scan walks a
// profile of hundreds to thousands of points, as after a flurry
// (flurryJobs) or in an overloaded stretch of a log.
func deepWorkload(n int, P int64) []swf.Job {
	jobs := routesWorkload(n, P)
	for i := range jobs {
		jobs[i].Submit = int64(i)
	}
	return jobs
}

// TestConservativeDeepEqualsPlain: over a deep queue (deepWorkload, 600
// jobs on 128 processors) conservative backfilling with its memo gives
// the plain pass's records. The rapid tests draw queues of tens of jobs;
// a cut aimed at deep queues (see the notes on a flurry in bench_test.go)
// is checked here.
func TestConservativeDeepEqualsPlain(t *testing.T) {
	jobs := deepWorkload(600, 128)
	want, _, err := routesRun(jobs, plainConservative{})
	if err != nil {
		t.Fatal(err)
	}
	got, sim, err := routesRun(jobs, conservativeScheduler{})
	if err != nil {
		t.Fatal(err)
	}
	samePlainRecords(t, want, got)
	r := sim.prof.memo.routes
	t.Logf("%+v", r)
	// the workload is deep: most visits are of jobs placed before
	if r.visits < 100*int64(len(jobs)) {
		t.Errorf("%d visits for %d jobs: the queue is not deep", r.visits, len(jobs))
	}
}

// BenchmarkConservativeDeepQueue is conservative backfilling over a deep
// queue (deepWorkload, 1,000 jobs on 128 processors), a second of the
// cost of the flurry log's minutes; it reports the placement loop's
// visits, scans and moves per run.
func BenchmarkConservativeDeepQueue(b *testing.B) {
	jobs := deepWorkload(1000, 128)
	var r consRoutes
	for b.Loop() {
		_, sim, err := routesRun(jobs, conservativeScheduler{})
		if err != nil {
			b.Fatal(err)
		}
		r = sim.prof.memo.routes
	}
	b.ReportMetric(float64(r.visits), "visits/run")
	b.ReportMetric(float64(r.scans), "scans/run")
	b.ReportMetric(float64(r.moves), "moves/run")
}
