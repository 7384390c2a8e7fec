package slurm

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// TestStillSpanFairShare: with fair share weighted (Fair Tree) under a
// sched_min_interval, a still stretch costs a bounded number of Run's
// wake-ups and a bounded time. Job 1 runs 2^40 seconds on every CPU and
// job 2 waits behind it: Run woke at every PriorityCalcPeriod, 3.7·10^9
// times (over 100,000 in the first 0.4 s), as usage might move a
// fair-share factor at any calculation. Now it wakes while the age
// factor rises (a week) and then, looking ahead, for a logarithm of the
// stretch. The wake-ups are counted (a context stops the run past the
// bound); the time bound is loose, for a shared machine. The priorities
// and the schedule are those of a wake-up at every calculation
// (TestLazyCalcSame*, TestStillSpanSearch).
func TestStillSpanFairShare(t *testing.T) {
	const huge = int64(1) << 40
	const bound = 5000
	for _, c := range []struct {
		name string
		site Config
	}{
		{"the issue's", Config{WeightAge: 1000, WeightFairshare: 10000, SchedMinInterval: 2}},
		{"no age", Config{WeightFairshare: 10000, SchedMinInterval: 2}},
		{"half-life an hour, assoc weighted", Config{WeightAge: 1000, WeightFairshare: 10000, WeightAssoc: 100,
			DecayHalfLife: 3600, SchedMinInterval: 5}},
	} {
		stillStretch(t, c.name, c.site, huge, bound)
	}
}

// TestStillSpanClassic is TestStillSpanFairShare under classic fair
// share, whose factors move with usage at any calculation: Run woke and
// computed every priority at each of the 3.7·10^9 calculations (2^30 s
// took 1.65 s, 3.6·10^6 wake-ups; 2^40 s about half an hour). Now it
// looks ahead (csChange) for a logarithm of the stretch. In the last
// site job 2's user has usage of its own under an account tree, so that
// its factor moves for the first cycles of the decay scale.
func TestStillSpanClassic(t *testing.T) {
	const huge = int64(1) << 40
	const bound = 5000
	tree := []Association{{Account: "a"}, {Account: "b", Parent: "a", Shares: 3}, {Account: "c", Shares: 2},
		{Account: "b", User: "1", Shares: 2}, {Account: "c", User: "2", RawUsage: 1e6}}
	for _, c := range []struct {
		name string
		site Config
	}{
		{"the issue's", Config{WeightAge: 1000, WeightFairshare: 10000, SchedMinInterval: 2, ClassicFairshare: true}},
		{"no age", Config{WeightFairshare: 10000, SchedMinInterval: 2, ClassicFairshare: true}},
		{"half-life an hour, assoc weighted", Config{WeightAge: 1000, WeightFairshare: 10000, WeightAssoc: 100,
			DecayHalfLife: 3600, SchedMinInterval: 5, ClassicFairshare: true}},
		{"an account tree, usage of job 2's user", Config{WeightAge: 1000, WeightFairshare: 1000, SchedMinInterval: 2,
			ClassicFairshare: true, Associations: tree, AccountNames: map[int64]string{1: "b"}}},
	} {
		stillStretch(t, c.name, c.site, huge, bound)
	}
}

// TestStillSpanClassicArrival: csChange's answer is about the jobs that
// waited when it looked. Job 3 arrives long into a still stretch whose
// look ahead found that nothing changes until an event (the state repeats
// from one fold to the next); its age factor then rises at every
// calculation for PriorityMaxAge, and each change brings a periodic run
// (fullPending) whose time SchedMinInterval reads when job 1 ends. The
// schedule is compared with a wake-up at every calculation.
func TestStillSpanClassicArrival(t *testing.T) {
	site := Config{WeightAge: 1000, MaxAge: 3600, WeightFairshare: 10000, ClassicFairshare: true,
		DecayHalfLife: 60, SchedMinInterval: 400}
	mach := sched.Config{MachineSize: 8}
	const at = 1 << 20
	for _, end := range []int64{at + 700, at + 1000, at + 2300} {
		jobs := []swf.Job{stillJob(1, 0, end, 8), stillJob(2, 1, 10, 8), stillJob(3, at, 10, 4)}
		eager, _ := prioLog(t, "eager", site, mach, jobs, nil, false, true)
		lazy, _ := prioLog(t, "lazy", site, mach, jobs, nil, false, false)
		sameLog(t, fmt.Sprint("job 1 ending at ", end), eager, lazy)
	}
}

// TestStillSpanNoDecay: without decay (DecayHalfLife -1, a site's
// PriorityDecayHalfLife=0), under Fair Tree and classic fair share, a
// still stretch of 2^40 s (job 1 on the whole machine, job 2 waiting)
// costs a bounded number of calculations. The tree's state never
// repeats, and the looks ahead and the catch-ups stepped every
// calculation, one per PriorityCalcPeriod: 3.7·10^9 (2^34 s cost 1.6 s
// of CPU under Fair Tree, 3.4 s under classic; 2^40 s minutes). Now they
// read the usage in closed form (stillflat.go). The run stops past 10^5
// calculations, a look's counted as it steps them (calcBound), or 5,000
// wake-ups; the schedule is the eager reference's (TestStillSpanSearch*,
// TestStillSpanFlatSearch).
func TestStillSpanNoDecay(t *testing.T) {
	const span = int64(1) << 40
	for _, classic := range []bool{false, true} {
		site := Config{WeightAge: 1000, WeightFairshare: 10000, SchedMinInterval: 2, DecayHalfLife: -1,
			ClassicFairshare: classic}
		p, err := New(site, sched.Config{MachineSize: 8})
		if err != nil {
			t.Fatal(err)
		}
		jobs := []swf.Job{stillJob(1, 0, span, 8), stillJob(2, 1, 10, 8)}
		res, err := p.Run(stillBound{context.Background(), p, 5000, 100000}, jobs)
		if err != nil {
			t.Fatalf("classic %v: %v after %d wake-ups, %d calculations", classic, err, p.wakes, p.calcs)
		}
		for _, r := range res.Records {
			if r.Job.ID == 2 && r.Start < span {
				t.Errorf("classic %v: job 2 starts at %d, before job 1's end", classic, r.Start)
			}
		}
		t.Logf("classic %v: %d wake-ups, %d calculations stepped, %d leapt, %d computed by looks",
			classic, p.wakes, p.calcs, p.leaps, p.flatEvals)
	}
}

// stillBound is a context done once p has woken more than wakes times or
// made more than calcs calculations, a look's counted as it steps them.
type stillBound struct {
	context.Context
	p            *Policy
	wakes, calcs int64
}

func (c stillBound) Err() error {
	if c.p.wakes > c.wakes || c.p.calcs > c.calcs {
		return fmt.Errorf("over %d wake-ups or %d calculations: %w", c.wakes, c.calcs, context.Canceled)
	}
	return nil
}

// TestStillSpanLookCancel: a look ahead (fsChange, csChange) hears Run's
// context as a catch-up does, every cutEvery calculations. It steps as
// many calculations as the stretch has gone, each a wake-up before, up
// to a repeat of the state at a fold of the decay scale: a still
// stretch without decay, whose looks then never ended at a repeat, ran
// a look of millions of calculations after Run was cancelled (a deadline
// of 5 s returned after 6.6 s under classic, 7.7 s under Fair Tree; of
// 2^40 s, a look is minutes). Those looks no longer step (stillflat.go);
// under the default half-life a look steps millions of calculations
// before the state repeats. The context here is done once the
// calculations made, a look's included, pass 2^21.
func TestStillSpanLookCancel(t *testing.T) {
	for _, classic := range []bool{false, true} {
		site := Config{WeightAge: 1000, WeightFairshare: 10000, SchedMinInterval: 2, ClassicFairshare: classic}
		p, err := New(site, sched.Config{MachineSize: 8})
		if err != nil {
			t.Fatal(err)
		}
		jobs := []swf.Job{stillJob(1, 0, 1<<36, 8), stillJob(2, 1, 10, 8)}
		if _, err := p.Run(calcBound{context.Background(), p, 1 << 21}, jobs); !errors.Is(err, context.Canceled) {
			t.Fatalf("classic %v: %v, want context.Canceled", classic, err)
		}
		if n := (p.fsUntil - p.fsFrom) / p.calcPeriod; !p.fsLooked || p.fsUntil == never || n > cutEvery {
			t.Errorf("classic %v: the last look ahead stepped %d calculations (looked %v, up to %d), more than %d: it did not hear the context",
				classic, n, p.fsLooked, p.fsUntil, cutEvery)
		}
	}
}

// calcBound is a context done once p has made more than n calculations,
// a look ahead's counted as it steps them.
type calcBound struct {
	context.Context
	p *Policy
	n int64
}

func (c calcBound) Err() error {
	if c.p.calcs > c.n {
		return context.Canceled
	}
	return nil
}

// stillStretch runs job 1 on the whole 8-CPU machine for huge seconds with
// job 2 waiting behind it, under site, and fails when Run wakes more than
// bound times (wakeBound), makes more than maxStillCalcs priority
// calculations, or starts job 2 early. The work is bounded by counts, not
// by the wall clock: CI runs this under -race beside other tests on two
// cores, where the 6.4·10^6 calculations of the account-tree case took
// 3.3 s alone and over three minutes at a load average of 30.
// maxStillCalcs bounds stillStretch's calculations: the cases count
// 36,853 to 6,356,293 (2026-12-02).
const maxStillCalcs = 1 << 23

func stillStretch(t *testing.T, name string, site Config, huge, bound int64) {
	t.Helper()
	p, err := New(site, sched.Config{MachineSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	jobs := []swf.Job{stillJob(1, 0, huge, 8), stillJob(2, 1, 10, 8)}
	begin := time.Now()
	res, err := p.Run(wakeBound{context.Background(), p, bound}, jobs)
	took := time.Since(begin)
	if err != nil {
		t.Errorf("%s: %v after %d wake-ups", name, err, p.wakes)
		return
	}
	if p.calcs > maxStillCalcs {
		t.Errorf("%s: %d priority calculations, more than %d (stepping the stretch is about 3.7·10^9)", name, p.calcs, maxStillCalcs)
	}
	if len(res.Records) != 2 {
		t.Errorf("%s: %d records, want 2", name, len(res.Records))
	}
	for _, r := range res.Records {
		if r.Job.ID == 2 && r.Start < huge {
			t.Errorf("%s: job 2 starts at %d, before job 1's end", name, r.Start)
		}
	}
	t.Logf("%s: %d wake-ups, %d calculations, %v", name, p.wakes, p.calcs, took)
}
