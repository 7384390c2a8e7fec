package slurm_test

import (
	"context"
	"math"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/slurm"
	"github.com/batchq/batchq/swf"
)

// The Slurm policy on SDSC-BLUE (243k records, 1,152 processors) against
// plain EASY on the same jobs, killed at their estimates as the policy
// kills at the time limit (issue 33's budget: ≤ 5× EASY's time).
//
// Measured with go test -c, then -test.bench '^BenchmarkBlue(EASY|Slurm)$'
// -test.benchtime 3x -test.cpu 1, on a 2-core machine shared with other
// work (load average 2–3, so single figures vary by a third; the least of
// four is kept): EASY 0.18 s, Slurm with age, fair share (Fair Tree) and
// job size weighted 1.38 s, about 7.6× EASY, above the goal of
// 5×. (The policy before slurmctld's timing and the cuts beside it: 1.48
// s, 8.2×, measured alongside.) The CPU profile
// splits the policy's time into backfill planning (a quarter: 345k
// cycles, of which 86k stop at once as no waiting job fits the free CPUs,
// testing 4.3M jobs with sched.Profile's Fit and Allocate), the
// priority calculations (a sixth: every waiting job's priority at each
// of some 280k PriorityCalcPeriods, and Fair Tree's walk when the ranks
// changed), the main scheduler's 700k runs and the simulator's passes
// for some 1M wake-ups.
//
// Then (issue 33's second round) Fair Tree's walk reads a compact array
// of keys and ranks, and a calculation that leaves the waiting jobs'
// order as it was brings no periodic main run and, when the last backfill
// cycle started and tried nothing, no cycle (Policy.sameOrder says when
// that is provably the same schedule; TestScheduleHashes holds it).
// Measured the same way, the test binaries before and after run in
// alternation six times, the machine busier (load 1–3): EASY 0.184 s;
// Slurm 1.683 s before, 1.506 s after (the fastest of six each), 10%
// less, about 8.2× EASY at that load, still above the goal of 5×. (The
// walk's ranks by value and the order checked in the same pass came
// after: 1.614 s against 1.777 s before, the fastest of five pairs at
// load 2.5, within the noise of the first figure.) What is
// left is where it was: backfill planning (a quarter, most cycles now
// after submissions and ends), the calculations (a fifth, Fair Tree's
// walk 8%), the main scheduler and the simulator's passes.
func benchBlue(b *testing.B, slurmPolicy bool) {
	_, jobs, err := swf.ReadFile(tracetest.Path(b, tracetest.SDSCBlue))
	if err != nil {
		b.Fatal(err)
	}
	site := slurm.Config{WeightAge: 1000, WeightFairshare: 10000, WeightJobSize: 1000}
	var res *sched.Result
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for b.Loop() {
		var err error
		if slurmPolicy {
			var p *slurm.Policy
			if p, err = slurm.New(site, sched.Config{MachineSize: 1152}); err != nil {
				b.Fatal(err)
			}
			res, err = p.Run(context.Background(), jobs)
		} else {
			res, err = sched.Run(context.Background(), sched.Config{MachineSize: 1152, KillAtEstimate: true}, jobs)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	cpu := (cpuSeconds() - cpu0) / float64(b.N)
	b.ReportMetric(float64(len(jobs))*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
	if cpu > 0 {
		// CPU seconds a run, and the simulated time (first submission
		// to last end) a CPU-hour simulates.
		first, last := int64(math.MaxInt64), int64(math.MinInt64)
		for _, r := range res.Records {
			first = min(first, r.Job.Submit)
			last = max(last, r.End)
		}
		b.ReportMetric(cpu, "cpu-s/op")
		b.ReportMetric(float64(last-first)/(24*3600)/(cpu/3600), "simdays/cpu-h")
	}
}

func BenchmarkBlueEASY(b *testing.B)  { benchBlue(b, false) }
func BenchmarkBlueSlurm(b *testing.B) { benchBlue(b, true) }
