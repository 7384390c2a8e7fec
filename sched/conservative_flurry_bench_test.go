package sched

import "testing"

// Conservative backfilling on parts of the flurry log (flurryJobs), on
// 128 processors: the drain of a flurry (the first 15,000 jobs with a
// flurry of 10,000: nearly every waiting one-processor job moves a slot
// earlier at each end) and the overloaded tail after one (a flurry of
// 2,000 and the first 1,500 of the 5,000 jobs after it: thousands
// waiting on a profile of thousands of points). Each reports the
// placement loop's visits, scans and moves per run.
func benchConsFlurry(b *testing.B, flurry int64, n int) {
	jobs := flurryJobs(flurry)
	jobs = jobs[:min(n, len(jobs))]
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

func BenchmarkConservativeFlurryDrain(b *testing.B) { benchConsFlurry(b, 10000, 15000) }
func BenchmarkConservativeFlurryTail(b *testing.B)  { benchConsFlurry(b, 2000, 8500) }
