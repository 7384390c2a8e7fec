package sched

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/batchq/batchq/swf"
)

// overloadedJobs returns n jobs of synthetic's kind (1,024 processors,
// log-uniform run times from 1 s to a day, power-of-two sizes up to 256,
// estimates 1–5 times the run time) whose Poisson arrivals are spaced for
// an offered load of load (sum of run × size over 1,024 × the span of the
// submits, in expectation): a load sweep's high end, where the queue
// grows with the log.
func overloadedJobs(n int, load float64) []swf.Job {
	rng := rand.New(rand.NewPCG(2, uint64(n)))
	jobs := make([]swf.Job, n)
	// E[run] for log-uniform on [1, 86400): (86400-1)/ln 86400;
	// E[size] = (2^9-1)/9
	meanArea := (86400 - 1) / math.Log(86400) * (511.0 / 9)
	gap := meanArea / 1024 / load
	var t float64
	for i := range jobs {
		run := int64(math.Exp(rng.Float64() * math.Log(86400)))
		size := int64(1) << rng.IntN(9)
		t += rng.ExpFloat64() * gap
		jobs[i] = swf.Job{ID: int64(i + 1), Submit: int64(t), Wait: -1, RunTime: run, AllocProcs: size, ReqProcs: size,
			ReqTime: run * (1 + rng.Int64N(5)), User: rng.Int64N(500), Status: 1}
	}
	return jobs
}

// TestOverloadedCostGrowth: on an overloaded log (offered load 1.8,
// where the queue grows with the log) the work of LXF&W's and
// conservative backfilling's passes, counted, not timed, grows per job
// no faster than it does now as the log doubles twice (2,500 to 10,000
// jobs).
//
// LXF&W sorts only the jobs its backfilling walk may start
// (ascendPriority): 1.5, 2.4, 3.5 jobs sorted per job at 2,500, 5,000
// and 10,000 jobs (6.2 at 20,000); sorting the whole queue at every pass,
// as it did, sorted 73, 166, 301 (586) per job and fails here.
//
// Conservative backfilling visits every waiting job at each full pass
// and scans a job's profile only where a gain can have moved it: per
// job 101, 255, 430 visits and 45, 141, 259 scans (fitBefore). Both grow
// with the queue, as compression must (the contract in bench_test.go);
// a bound of 2.5 per doubling on visits and 3 on scans catches work per
// job that grows faster than that with the log. A pass that scans every
// job it visits grows no faster (100, 252, 427 scans: the same growth as
// the visits): scans must stay below 3/4 of the visits at every size
// (0.45, 0.55, 0.60 of them), as a scan is only for a job whose slot a
// gain since its placement can have opened.
func TestOverloadedCostGrowth(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: LXF&W and conservative on 2,500 to 10,000 overloaded jobs (about 1 s)")
	}
	sizes := []int{2500, 5000, 10000}
	run := func(cfg Config, n int) *Sim {
		sim, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := sim.Load(overloadedJobs(n, 1.8)); err != nil {
			t.Fatal(err)
		}
		if _, err := sim.Finish(); err != nil {
			t.Fatal(err)
		}
		return sim
	}
	for _, n := range sizes {
		sim := run(lxfw(1024), n)
		perJob := float64(sim.sorted) / float64(n)
		t.Logf("LXF&W, %d jobs: %.1f sorted per job", n, perJob)
		if perJob > 5 {
			t.Errorf("LXF&W, %d jobs: %.1f jobs sorted per job, more than 5: the backfilling walk sorts jobs it cannot start", n, perJob)
		}
	}
	var visits, scans []float64
	for _, n := range sizes {
		sim := run(conservative(1024), n)
		r := sim.prof.memo.routes
		visits = append(visits, float64(r.visits)/float64(n))
		scans = append(scans, float64(r.scans)/float64(n))
		t.Logf("conservative, %d jobs: %.0f visits, %.0f scans, %.0f moves per job", n, visits[len(visits)-1], scans[len(scans)-1], float64(r.moves)/float64(n))
	}
	last := len(sizes) - 1
	if g := visits[last] / visits[0]; g > 2.5*2.5 {
		t.Errorf("conservative: visits per job grew %.1f times over two doublings of the log, more than 2.5 per doubling", g)
	}
	for i, n := range sizes {
		if scans[i] > 0.75*visits[i] {
			t.Errorf("conservative, %d jobs: %.0f scans per job for %.0f visits, more than 3/4 of them: passes scan jobs that no gain can have moved", n, scans[i], visits[i])
		}
	}
	if g := scans[last] / scans[0]; g > 3*3 {
		t.Errorf("conservative: scans per job grew %.1f times over two doublings of the log, more than 3 per doubling", g)
	}
}
