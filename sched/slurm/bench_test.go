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
// kills at the time limit (issue 33's budget: ≤ 5× EASY's time). Each
// reports its CPU seconds a run (cpu-s/op, getrusage: on a machine shared
// with other work the wall time counts the waits for a core) and the
// simulated days a CPU-hour simulates (simdays/cpu-h). Measure them
// alternated, several rounds, with fixed iterations:
//
//	go test -c && for i in 1 2 3 4 5 6; do for b in EASY Slurm; do
//	  ./slurm.test -test.run X -test.bench "^BenchmarkBlue$b\$" -test.benchtime 3x -test.cpu 1
//	done; done
//
// README.md's Cost gives the figures, the machine and where the time goes.
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
			res, err = sched.Run(context.Background(), sched.Config{MachineSize: 1152, KillAtEstimate: true, KillCheck: 30}, jobs)
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
