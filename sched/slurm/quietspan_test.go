package slurm

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// TestQuietSpanEnds: a span between events of a user-supplied length
// costs no step per PriorityCalcPeriod or BackfillInterval. One job
// running 2^40 seconds under PriorityWeightAge=1000 cost a calculation
// every five minutes of it (about a minute of CPU; linear in the run
// time), one submitted near 2^40 did not end, and a job waiting behind
// one running 10^10 seconds cost a backfill check every 30 seconds. Each
// run has 10 seconds.
func TestQuietSpanEnds(t *testing.T) {
	const huge = int64(1) << 40
	job := func(id, submit, run int64) swf.Job {
		return swf.Job{ID: id, Submit: submit, RunTime: run, ReqTime: run, AllocProcs: 8, ReqProcs: 8,
			User: 1, Group: 1, Queue: 1, Partition: 1, Status: 1}
	}
	for _, c := range []struct {
		name string
		site Config
		jobs []swf.Job
	}{
		{"run 2^40", Config{WeightAge: 1000}, []swf.Job{job(1, 0, huge)}},
		{"submit near 2^40, run 2^40", Config{WeightAge: 1000}, []swf.Job{job(1, huge-776, huge)}},
		{"classic, run 2^40", Config{WeightAge: 1000, ClassicFairshare: true}, []swf.Job{job(1, 0, huge)}},
		{"one waits behind 10^10", Config{WeightAge: 1000}, []swf.Job{job(1, 0, 1e10), job(2, 1, 10)}},
		{"one waits behind 2^40", Config{WeightAge: 1000, MaxAge: 60}, []swf.Job{job(1, 0, huge), job(2, 1, 10)}},
	} {
		p, err := New(c.site, sched.Config{MachineSize: 8})
		if err != nil {
			t.Fatal(err)
		}
		type out struct {
			res *sched.Result
			err error
		}
		done := make(chan out, 1)
		go func() {
			res, err := p.Run(context.Background(), c.jobs)
			done <- out{res, err}
		}()
		select {
		case o := <-done:
			if o.err != nil {
				t.Fatalf("%s: %v", c.name, o.err)
			}
			if len(o.res.Records) != len(c.jobs) {
				t.Fatalf("%s: %d records, want %d", c.name, len(o.res.Records), len(c.jobs))
			}
			var last int64 // job 1's end: job 2 starts then
			for _, r := range o.res.Records {
				if r.Job.ID == 1 {
					if last = r.End; r.End != r.Start+r.Job.RunTime || r.Start > r.Job.Submit+10 {
						t.Errorf("%s: job 1 ran from %d to %d", c.name, r.Start, r.End)
					}
				}
			}
			for _, r := range o.res.Records {
				if r.Job.ID == 2 && r.Start != last {
					t.Errorf("%s: job 2 started at %d, want %d", c.name, r.Start, last)
				}
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the run did not end in 10 s", c.name)
		}
	}
}

// TestQuietSpanSkipSame: passing over the calculations and backfill
// checks of a quiet span (catchUp's skipTo, backfillDue's fold) changes
// no schedule: on random workloads with long gaps and long jobs, every
// start (time, backfilled, priority), reservation and end is the same as
// when stepping through each, under Run's lazy and eager calculations
// and as a plain sched.Scheduler; and spans were passed over.
func TestQuietSpanSkipSame(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 2))
	rounds := 40
	if testing.Short() {
		rounds = 12
	}
	var skipped [3]int64 // by mode: lazy Run, eager Run, plain
	for round := range rounds {
		P := int64(4 + rng.IntN(28))
		var jobs []swf.Job
		at := int64(rng.IntN(500))
		for i := range 5 + rng.IntN(40) {
			at += rng.Int64N([]int64{10, 3000, 40000}[rng.IntN(3)])
			limit := int64(60 + rng.Int64N([]int64{7200, 100000}[rng.IntN(2)]))
			jobs = append(jobs, swf.Job{ID: int64(i + 1), Submit: at, RunTime: 1 + rng.Int64N(limit),
				ReqTime: limit, AllocProcs: 1 + rng.Int64N(P), ReqProcs: -1, User: rng.Int64N(4),
				Group: rng.Int64N(2), Queue: -1, Partition: -1, Status: 1})
		}
		site := Config{WeightAge: rng.Int64N(3) * 1000, WeightJobSize: rng.Int64N(2) * 1000,
			CalcPeriod: []int64{1, 7, 30, 0}[rng.IntN(4)], BackfillInterval: []int64{0, 1, 7}[rng.IntN(3)],
			SchedInterval: []int64{0, 13, 60}[rng.IntN(3)], DecayHalfLife: []int64{0, 3600}[rng.IntN(2)],
			EnforceLimits: rng.IntN(2) == 0, Epilog: rng.IntN(2) == 0, MaxAge: []int64{0, 100, 5000}[rng.IntN(3)],
			ClassicFairshare: rng.IntN(2) == 0, SchedMinInterval: []int64{0, 0, 2}[rng.IntN(3)]}
		if rng.IntN(4) == 0 { // usage is read: no calculation is passed over
			site.WeightFairshare = 10000
		}
		for mode := range 3 {
			run := func(stepAll bool) []string {
				p, err := New(site, sched.Config{MachineSize: P})
				if err != nil {
					t.Fatal(err)
				}
				p.eagerCalc, p.stepAll = mode == 1, stepAll
				var log []string
				obs := logHooks(p, &log)
				if mode == 2 {
					_, err = sched.Run(context.Background(), sched.Config{MachineSize: P, Scheduler: p, KillAtEstimate: true}, jobs, obs)
				} else {
					_, err = p.Run(context.Background(), jobs, obs)
				}
				if err != nil {
					t.Fatal(err)
				}
				if stepAll && p.skips != 0 {
					t.Fatalf("stepAll passed over %d", p.skips)
				}
				skipped[mode] += p.skips
				return log
			}
			sameLog(t, fmt.Sprintf("round %d mode %d (%+v, P %d)", round, mode, site, P), run(true), run(false))
		}
	}
	if skipped[0] == 0 || skipped[2] == 0 {
		t.Errorf("passed over %v (lazy Run, eager Run, plain): none under lazy Run or plain", skipped)
	}
	t.Logf("passed over %v calculations and backfill checks (lazy Run, eager Run, plain)", skipped)
}

// TestQuietSpanHearsCancel: with fair share weighted a quiet span is
// still stepped a calculation at a time (usage is read), and the
// catch-up of one job running 2^40 seconds, within one instant, took
// about two minutes deaf to its context (SIGTERM to simulate was heard
// only at the end). Now Run returns the context's error within 10 s of
// a cancel, not a schedule.
func TestQuietSpanHearsCancel(t *testing.T) {
	const huge = int64(1) << 40
	for _, site := range []Config{{WeightAge: 1000, WeightFairshare: 10000},
		{WeightAge: 1000, WeightFairshare: 10000, ClassicFairshare: true}} {
		p, err := New(site, sched.Config{MachineSize: 8})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		done := make(chan error, 1)
		go func() {
			_, err := p.Run(ctx, []swf.Job{{ID: 1, Submit: 0, RunTime: huge, ReqTime: huge, AllocProcs: 8,
				ReqProcs: 8, User: 1, Group: 1, Queue: 1, Partition: 1, Status: 1}})
			done <- err
		}()
		select {
		case err := <-done:
			if err != context.DeadlineExceeded {
				t.Errorf("%+v: Run returned %v, want %v", site, err, context.DeadlineExceeded)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%+v: Run did not return in 10 s of its context's end", site)
		}
	}
}
