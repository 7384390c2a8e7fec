package slurm

import (
	"context"
	"fmt"
	"math"
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
// and as a plain sched.Scheduler (with and without KillAtEstimate, its
// calculations computing priorities while ages rise); and spans were
// passed over. 40 rounds; 4 under -short, the first 4 of the 40 (CI's
// -race run: the rounds are sequential, as the package is, and the
// plain run does all 40).
func TestQuietSpanSkipSame(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 2))
	rounds := 40
	if testing.Short() {
		rounds = 4
	}
	var skipped [3]int64 // by mode: lazy Run, eager Run, plain
	for round := range rounds {
		P := int64(4 + rng.IntN(28))
		var jobs []swf.Job
		at := int64(rng.IntN(500))
		for i := range 5 + rng.IntN(40) {
			at += rng.Int64N([]int64{10, 3000, 40000}[rng.IntN(3)])
			limit := int64(60 + rng.Int64N([]int64{7200, 100000}[rng.IntN(2)]))
			run := 1 + rng.Int64N(limit)
			if rng.IntN(4) == 0 { // overruns: killed, or an expiry without KillAtEstimate
				run = limit + 1 + rng.Int64N(limit/2)
			}
			jobs = append(jobs, swf.Job{ID: int64(i + 1), Submit: at, RunTime: run,
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
		// A plain Scheduler without kills also passes at expiries, where
		// no job arrives or ends (see stillAt).
		kill := rng.IntN(2) == 0
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
					_, err = sched.Run(context.Background(), sched.Config{MachineSize: P, Scheduler: p, KillAtEstimate: kill}, jobs, obs)
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

// TestQuietSpanHearsCancel: with fair share weighted a quiet span was
// stepped a calculation at a time (usage is read; catchUp steps so still
// until the decay scale's cycles repeat, and under stepAll), and the
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
		// Stepping every calculation (as before cycle passed over the
		// whole cycles of the decay scale, which end this run in 0.1 s).
		p.stepAll = true
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

// TestFairShareSpanCycles: with PriorityWeightFairshare weighted, a quiet
// span cost one calculation per PriorityCalcPeriod, however long (0.45 s
// of CPU for a job running 10^10 s under the defaults): usage is read, so
// stillAt passes over none. Now the whole cycles of the decay scale
// after the state repeats are passed over (cycle), so that a span ten
// times as long costs less than twice the calculations (counted, not
// timed), under Run's lazy calculations (a job waits), with nothing
// waiting (SchedMinInterval, whose calculations compute priorities),
// Fair Tree and classic, flat or with accounts;
// and everything is as when stepping each: the log and every
// association's usage, bit for bit. Spans of 10^7 and 10^8 s; of 10^6
// and 10^7 under -short (CI's -race run, of a package without
// goroutines: stepping 10^8 s is 1.7 million calculations a case).
func TestFairShareSpanCycles(t *testing.T) {
	job := func(id, submit, run, cpus, user int64) swf.Job {
		return swf.Job{ID: id, Submit: submit, RunTime: run, ReqTime: run, AllocProcs: cpus, ReqProcs: cpus,
			User: user, Group: user % 2, Queue: -1, Partition: -1, Status: 1}
	}
	accts := []Association{{Account: "a"}, {Account: "b", Shares: 3}, {Account: "c", Parent: "a", Shares: 2},
		{Account: "a", User: "1", Shares: 2}, {Account: "c", User: "2"}, {Account: "b", User: "3", RawUsage: 1e9}}
	base := Config{WeightAge: 1000, WeightFairshare: 10000, DecayHalfLife: 600, CalcPeriod: 60}
	type tcase struct {
		name string
		site Config
		jobs func(span int64) []swf.Job
	}
	waits := func(span int64) []swf.Job { return []swf.Job{job(1, 0, span, 8, 1), job(2, 10, 100, 4, 2)} }
	alone := func(span int64) []swf.Job { return []swf.Job{job(1, 0, span, 8, 1)} }
	two := func(span int64) []swf.Job {
		return []swf.Job{job(1, 0, span, 4, 1), job(2, 5, span+7, 3, 2), job(3, 9, 100, 4, 3), job(4, 20, 50, 2, 1)}
	}
	classic, minInt, tree := base, base, base
	classic.ClassicFairshare = true
	minInt.SchedMinInterval = 2
	tree.Associations, tree.AccountNames = accts, map[int64]string{0: "a", 1: "b"}
	treeClassic := tree
	treeClassic.ClassicFairshare = true
	spans := [2]int64{1e7, 1e8}
	if testing.Short() {
		spans = [2]int64{1e6, 1e7}
	}
	for _, c := range []tcase{
		{"Fair Tree, a job waits", base, waits},
		{"classic, a job waits", classic, waits},
		{"SchedMinInterval, alone", minInt, alone},
		{"accounts, two run", tree, two},
		{"accounts, classic, two run", treeClassic, two},
	} {
		var calcs [2]int64
		for k, span := range spans {
			run := func(stepAll bool) (*Policy, []string) {
				p, err := New(c.site, sched.Config{MachineSize: 8})
				if err != nil {
					t.Fatal(err)
				}
				p.stepAll = stepAll
				var log []string
				obs := logHooks(p, &log)
				if _, err := p.Run(context.Background(), c.jobs(span), obs); err != nil {
					t.Fatal(err)
				}
				return p, log
			}
			step, stepLog := run(true)
			p, log := run(false)
			what := fmt.Sprintf("%s, span %g", c.name, float64(span))
			sameLog(t, what, stepLog, log)
			sameTree(t, what, step.tree, p.tree)
			if step.calcs != p.calcs+p.cycSkips {
				t.Errorf("%s: %d calculations stepping, %d done and %d passed over", what, step.calcs, p.calcs, p.cycSkips)
			}
			calcs[k] = p.calcs
			t.Logf("%s: %d calculations, %d passed over", what, p.calcs, p.cycSkips)
		}
		if calcs[1] >= 2*calcs[0] {
			t.Errorf("%s: %d calculations for a span of %g s, %d for %g: linear in the span", c.name, calcs[0], float64(spans[0]), calcs[1], float64(spans[1]))
		}
	}
}

// sameTree fails t unless trees a and b hold the same usage, bit for bit,
// the same scale, and the same state of every association (effective
// usage, key, rank, place) and of the ordering.
func sameTree(t *testing.T, what string, a, b *tree) {
	t.Helper()
	if a.scale != b.scale || len(a.a) != len(b.a) || a.gen != b.gen {
		t.Fatalf("%s: scale %g and %g, %d and %d associations, %d and %d classic calculations",
			what, a.scale, b.scale, len(a.a), len(b.a), a.gen, b.gen)
	}
	for i := range a.a {
		if x, y := a.a[i].usage, b.a[i].usage; math.Float64bits(x) != math.Float64bits(y) {
			t.Fatalf("%s: association %d: usage %v stepping, %v", what, i, x, y)
		}
		// And all else a calculation writes and cycle's snapshot holds.
		x, y, fx, fy := &a.a[i], &b.a[i], a.ft[i], b.ft[i]
		if math.Float64bits(x.efctv) != math.Float64bits(y.efctv) || x.efctvOK != y.efctvOK || x.pos != y.pos ||
			x.moved != y.moved || math.Float64bits(fx.levelFS) != math.Float64bits(fy.levelFS) || fx.rank != fy.rank {
			t.Fatalf("%s: association %d: effective usage %v (%v), place %d, moved %v, key %v, rank %d stepping; %v (%v), %d, %v, %v, %d",
				what, i, x.efctv, x.efctvOK, x.pos, x.moved, fx.levelFS, fx.rank, y.efctv, y.efctvOK, y.pos, y.moved, fy.levelFS, fy.rank)
		}
	}
	if len(a.moved) != len(b.moved) || a.ranksOK != b.ranksOK || a.allStale != b.allStale || a.lo != b.lo || a.hi != b.hi {
		t.Fatalf("%s: moved %d, ranks OK %v, stale %v, [%d, %d] stepping; %d, %v, %v, [%d, %d]", what,
			len(a.moved), a.ranksOK, a.allStale, a.lo, a.hi, len(b.moved), b.ranksOK, b.allStale, b.lo, b.hi)
	}
}

// TestCycleSkipSame: passing over whole cycles of the decay scale changes
// no schedule: on random workloads with long jobs and short half-lives
// (cycles of one calculation to a few thousand), fair share
// weighted, every start, reservation and end, and every association's
// usage at the end, is the same as when stepping each calculation, under
// Run's lazy and eager calculations and as a plain sched.Scheduler; and
// cycles were passed over.
func TestCycleSkipSame(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 7))
	rounds := 150
	if testing.Short() { // the first 8 (CI's -race run; the plain run does all 150)
		rounds = 8
	}
	var skipped [3]int64
	for round := range rounds {
		P := int64(4 + rng.IntN(12))
		var jobs []swf.Job
		at := int64(rng.IntN(500))
		for i := range 3 + rng.IntN(12) {
			at += rng.Int64N([]int64{10, 3000, 200000}[rng.IntN(3)])
			limit := int64(60 + rng.Int64N([]int64{7200, 500000}[rng.IntN(2)]))
			jobs = append(jobs, swf.Job{ID: int64(i + 1), Submit: at, RunTime: 1 + rng.Int64N(limit),
				ReqTime: limit, AllocProcs: 1 + rng.Int64N(P), ReqProcs: -1, User: rng.Int64N(4),
				Group: rng.Int64N(2), Queue: -1, Partition: -1, Status: 1})
		}
		site := Config{WeightAge: rng.Int64N(3) * 1000, WeightFairshare: 10000, WeightJobSize: rng.Int64N(2) * 1000,
			CalcPeriod: []int64{7, 30, 60, 400}[rng.IntN(4)], BackfillInterval: []int64{0, 7}[rng.IntN(2)],
			DecayHalfLife: []int64{1, 10, 60}[rng.IntN(3)], EnforceLimits: rng.IntN(2) == 0,
			Epilog: rng.IntN(2) == 0, MaxAge: []int64{0, 100, 5000}[rng.IntN(3)],
			ClassicFairshare: rng.IntN(2) == 0, SchedMinInterval: []int64{0, 0, 2}[rng.IntN(3)]}
		if rng.IntN(2) == 0 {
			site.Associations = []Association{{Account: "a"}, {Account: "b", Parent: "a", Shares: 3}, {Account: "c", Shares: 2},
				{Account: "a", User: "0", Shares: 2}, {Account: "b", User: "1"}, {Account: "c", User: "2", RawUsage: 1e6}}
			site.AccountNames = map[int64]string{0: "a", 1: "b"}
		}
		for mode := range 3 {
			run := func(stepAll bool) (*Policy, []string) {
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
				return p, log
			}
			step, stepLog := run(true)
			p, log := run(false)
			what := fmt.Sprintf("round %d mode %d (%+v, P %d)", round, mode, site, P)
			sameLog(t, what, stepLog, log)
			sameTree(t, what, step.tree, p.tree)
			skipped[mode] += p.cycSkips
		}
	}
	if skipped[0] == 0 || skipped[2] == 0 {
		t.Errorf("cycles passed over %v calculations (lazy Run, eager Run, plain): none under lazy Run or plain", skipped)
	}
	t.Logf("cycles passed over %v calculations (lazy Run, eager Run, plain)", skipped)
}
