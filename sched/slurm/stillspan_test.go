package slurm

import (
	"context"
	"fmt"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

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
	job := func(id, submit, run, cpus int64) swf.Job {
		return swf.Job{ID: id, Submit: submit, RunTime: run, ReqTime: run, AllocProcs: cpus, ReqProcs: -1,
			User: id, Group: 1, Queue: -1, Partition: -1, Status: 1}
	}
	for _, c := range []struct {
		name string
		site Config
		jobs []swf.Job
	}{
		{"the issue's: intervals and delay 2^40", Config{WeightAge: 1000, SchedMinInterval: 5, SchedInterval: huge, BatchSchedDelay: huge},
			[]swf.Job{job(1, 0, huge-10, 8), job(2, 5, 10, 8)}},
		{"defaults, sched_min_interval 2", Config{WeightAge: 1000, SchedMinInterval: 2},
			[]swf.Job{job(1, 0, huge, 8), job(2, 1, 10, 8)}},
		{"MaxAge 2^40", Config{WeightAge: 1000, MaxAge: huge, SchedMinInterval: 2},
			[]swf.Job{job(1, 0, huge, 8), job(2, 1, 10, 8)}},
		{"a held run over the whole queue", Config{Builtin: true, SchedMinInterval: huge, SchedInterval: 13},
			[]swf.Job{job(1, 0, huge, 8), job(2, 1, 10, 8)}},
		{"backfill checks off the calculations' grid", Config{WeightAge: 1000, SchedMinInterval: 2, BackfillInterval: 7},
			[]swf.Job{job(1, 3, huge-10, 8), job(3, 20, 100, 1), job(2, 4, 10, 8)}},
		{"Builtin, job 1 of 1 CPU", Config{Builtin: true, SchedInterval: huge, CalcPeriod: 60},
			[]swf.Job{job(3, 0, 10, 1), job(1, 30, huge-100, 7), job(2, 40, 10, 8)}},
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
