package slurm

import (
	"context"
	"fmt"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// stillJob is job id submitted at submit, running run seconds (its
// estimate exact) on cpus CPUs, of user id: the still-span tests' jobs.
func stillJob(id, submit, run, cpus int64) swf.Job {
	return swf.Job{ID: id, Submit: submit, RunTime: run, ReqTime: run, AllocProcs: cpus, ReqProcs: -1,
		User: id, Group: 1, Queue: -1, Partition: -1, Status: 1}
}

// TestStillSpanWakes: a quiet stretch costs a bounded number of Run's
// wake-ups whatever its length, with SchedMinInterval too. Job 1 runs
// near 2^40 seconds on every CPU and job 2 waits behind it. Under a
// sched_min_interval Run woke for every PriorityCalcPeriod (3.7·10^9
// wake-ups of five minutes: a hang; 652 of 960 random such sites ran
// over 300 ms), and for every periodic tick while a run over the whole
// queue was held back; with Builtin and none at all, a stale bound on
// the smallest waiting job (minWait) kept the calculations eager. The
// wake-ups are counted, not timed: a context stops the run once they
// pass the bound.
func TestStillSpanWakes(t *testing.T) {
	const huge = int64(1) << 40
	const bound = 20000
	for _, c := range []struct {
		name string
		site Config
		jobs []swf.Job
	}{
		{"the issue's: intervals and delay 2^40", Config{WeightAge: 1000, SchedMinInterval: 5, SchedInterval: huge, BatchSchedDelay: huge},
			[]swf.Job{stillJob(1, 0, huge-10, 8), stillJob(2, 5, 10, 8)}},
		{"defaults, sched_min_interval 2", Config{WeightAge: 1000, SchedMinInterval: 2},
			[]swf.Job{stillJob(1, 0, huge, 8), stillJob(2, 1, 10, 8)}},
		{"MaxAge 2^40", Config{WeightAge: 1000, MaxAge: huge, SchedMinInterval: 2},
			[]swf.Job{stillJob(1, 0, huge, 8), stillJob(2, 1, 10, 8)}},
		{"a held run over the whole queue", Config{Builtin: true, SchedMinInterval: huge, SchedInterval: 13},
			[]swf.Job{stillJob(1, 0, huge, 8), stillJob(2, 1, 10, 8)}},
		{"backfill checks off the calculations' grid", Config{WeightAge: 1000, SchedMinInterval: 2, BackfillInterval: 7},
			[]swf.Job{stillJob(1, 3, huge-10, 8), stillJob(3, 20, 100, 1), stillJob(2, 4, 10, 8)}},
		{"Builtin, job 1 of 1 CPU", Config{Builtin: true, SchedInterval: huge, CalcPeriod: 60},
			[]swf.Job{stillJob(3, 0, 10, 1), stillJob(1, 30, huge-100, 7), stillJob(2, 40, 10, 8)}},
	} {
		p, err := New(c.site, sched.Config{MachineSize: 8})
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.Run(wakeBound{context.Background(), p, bound}, c.jobs)
		if err != nil {
			t.Errorf("%s: %v after %d wake-ups", c.name, err, p.wakes)
			continue
		}
		if len(res.Records) != len(c.jobs) {
			t.Errorf("%s: %d records, want %d", c.name, len(res.Records), len(c.jobs))
		}
		end := map[int64]int64{}
		for _, r := range res.Records {
			end[r.Job.ID] = r.End
		}
		for _, r := range res.Records {
			if r.Job.ID == 2 && r.Start < end[1] {
				t.Errorf("%s: job 2 starts at %d, before job 1's end %d", c.name, r.Start, end[1])
			}
		}
		t.Logf("%s: %d wake-ups", c.name, p.wakes)
	}
}

// wakeBound is a context cancelled once p has woken more than n times.
type wakeBound struct {
	context.Context
	p *Policy
	n int64
}

func (w wakeBound) Err() error {
	if w.p.wakes > w.n {
		return fmt.Errorf("over %d wake-ups: %w", w.n, context.Canceled)
	}
	return nil
}

// TestStillSpanStaleWake: a wake-up asked for a periodic tick (a run over
// the whole queue pending, CPUs free) while calculations are passed over
// must not outlive the pass that frees no CPU any more: the eager
// algorithm asks it only at the last calculation before the tick, and a
// pass on a tick asks a run, which SchedMinInterval then holds back (here
// job 4 started 28 s late). Found by a random search (reviewer); the
// schedule is compared with a wake-up at every calculation.
func TestStillSpanStaleWake(t *testing.T) {
	job := func(id, submit, run, req, cpus, user, group, queue, part int64) swf.Job {
		return swf.Job{ID: id, Submit: submit, RunTime: run, ReqTime: req, AllocProcs: cpus, ReqProcs: -1,
			User: user, Group: group, Queue: queue, Partition: part, Status: 1}
	}
	jobs := []swf.Job{
		job(1, 420, 2569, 2574, 11, 1, 2, 1, -1),
		job(2, 707, 250, 1662, 20, 1, 2, 1, 1),
		job(3, 1050, 645, 645, 12, 0, 0, -1, 0),
		job(4, 1104, 1038, 1816, 11, 0, 0, 0, -1),
		job(5, 1421, 117, 204, 15, 1, 2, 1, -1),
		job(6, 1789, 1527, 2497, 18, 2, 2, -1, 0),
		job(7, 1785, 3143, 4058, 20, 2, 1, 1, 0),
		job(8, 2136, 2118, 2354, 14, 1, 0, 0, 1),
		job(9, 2183, 3794, 3794, 18, 0, 1, 1, -1),
		job(10, 2470, 326, 2254, 20, 2, 2, 0, 1),
		job(11, 2819, 3311, 5551, 4, 1, 2, 0, -1),
		job(12, 2894, 3624, 4419, 19, 1, 2, 0, 0),
		job(13, 3084, 109, 1423, 17, 3, 1, 1, -1),
		job(14, 3458, 60565, 400000, 13, 1, 0, 0, 0),
		job(15, 3808, 8713, 20000, 6, 2, 0, 0, -1),
		job(16, 3815, 985509, 1000000, 2, 2, 0, -1, 1),
	}
	site := Config{WeightAge: 1000, WeightFairshare: 20000, WeightPartition: 2000, WeightAssoc: 300,
		DecayHalfLife: 1, CalcPeriod: 7, ClassicFairshare: true, Builtin: true, NamedNodes: true,
		SchedInterval: 60, SchedMinInterval: 61, Epilog: true, OverTimeLimit: 60, EnforceLimits: true,
		QOS: map[string]int64{"0": 10, "1": 3}}
	mach := sched.Config{PerEventPass: true, Nodes: []swf.Node{{Name: "n", Count: 5, Cores: 4, Memory: 64}}}
	run := func(eager bool) []string {
		p, err := New(site, mach)
		if err != nil {
			t.Fatal(err)
		}
		p.eagerCalc = eager
		var log []string
		if _, err := p.Run(context.Background(), jobs, logHooks(p, &log)); err != nil {
			t.Fatal(err)
		}
		return log
	}
	sameLog(t, "stale tick wake-up", run(true), run(false))
}
