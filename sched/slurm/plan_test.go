package slurm

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// TestPlanAsProfile checks the backfill plan against sched.Profile, whose
// cut-down copy it is: the same releases, then queries each followed by
// the allocation a cycle makes, must find the same times (or, for a start
// beyond a horizon, a time after it and no later, if there is one),
// also when a query no smaller than the last one that found a start
// scans from that start.
func TestPlanAsProfile(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 5))
	for range 2000 {
		now := rng.Int64N(1000)
		free := rng.Int64N(20)
		var prof sched.Profile
		var pl plan
		prof.Reset(now, free)
		pl.reset(now, free)
		at := now - 5
		for range rng.IntN(12) {
			at += rng.Int64N(50)
			n := 1 + rng.Int64N(10)
			prof.Release(at, n)
			pl.release(at, n)
		}
		for range 30 {
			n, d := rng.Int64N(40), rng.Int64N(200)-5
			// A horizon: none, or one the earliest start may pass.
			by := int64(1 << 62)
			if rng.IntN(2) == 0 {
				by = now + rng.Int64N(400)
			}
			got, idx, ok := fitAsProfile(t, &prof, &pl, n, d, by, now)
			if !ok {
				continue
			}
			// A reservation later than the fit, as a cycle makes one.
			s := got + rng.Int64N(3)
			dd := 1 + rng.Int64N(150)
			prof.Allocate(s, dd, n)
			pl.allocate(s, dd, n, idx)
		}
	}
}

// TestPlanCycleAsProfile drives the plan as backfill does and checks it
// against sched.Profile: releases (jobs overdue or ending at now among
// them, by release or releaseEnds), then queries each followed by an
// allocation held until the next query, of more CPUs than asked (whole
// nodes, even more than are free), from the start found or later (a job
// whose start failed, reserved from Pass.Earliest), for longer or shorter
// than asked (bf_resolution's rounding), horizons on a point's time
// among them (bf_window's edge). The plan is reused from cycle to cycle,
// as the Policy's is. After every query the plan must not fall after
// mono: a query starting there skips the walk over its span.
func TestPlanCycleAsProfile(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 6))
	var pl plan
	for round := range 3000 {
		now := rng.Int64N(1000)
		free := rng.Int64N(20)
		var prof sched.Profile
		prof.Reset(now, free)
		pl.reset(now, free)
		var run []*jobRec
		for i := range rng.IntN(12) {
			run = append(run, &jobRec{id: int64(i), start: now - rng.Int64N(100), limit: rng.Int64N(300), cpus: 1 + rng.Int64N(10)})
		}
		slices.SortFunc(run, cmpEnd)
		byOne := rng.IntN(2) == 0
		if !byOne {
			pl.releaseEnds(run)
		}
		for _, r := range run {
			prof.Release(r.start+r.limit, r.cpus)
			if byOne {
				pl.release(r.start+r.limit, r.cpus)
			}
		}
		for q := range 30 {
			n, d := rng.Int64N(30), rng.Int64N(200)-5
			by := int64(1 << 62)
			switch rng.IntN(3) {
			case 0:
				by = now + rng.Int64N(400)
			case 1:
				by = pl.ts[rng.IntN(len(pl.ts))] // a point's time
			}
			got, idx, ok := fitAsProfile(t, &prof, &pl, n, d, by, now)
			for i := pl.mono + 1; i < len(pl.fr); i++ {
				if pl.fr[i] < pl.fr[i-1] {
					t.Fatalf("round %d query %d: the plan falls at %d, after mono %d: %v %v", round, q, i, pl.mono, pl.ts, pl.fr)
				}
			}
			if !ok {
				continue
			}
			s := got
			if rng.IntN(4) == 0 {
				s += 1 + rng.Int64N(100) // a start that failed: reserved later
			}
			h, dd := n+rng.Int64N(8), 1+rng.Int64N(150)
			prof.Allocate(s, dd, h)
			pl.hold(s, dd, h, idx)
		}
	}
}

// TestPlanMonoInRuns checks plan.mono where backfill uses it, on random
// sites (partitions with node sets, an unknown partition holding jobs,
// OverTimeLimit with jobs running past their limits, bf_max_job_user, a
// small bf_window and bf_resolution, NamedNodes) and machines (one pool,
// nodes of 4 CPUs): at every start and reservation a cycle makes, the
// plan does not fall after mono, and queries from the cycle's plan as it
// stands find what they find with the shortcut turned off (mono past the
// last point: every query walks its span). Without bf_max_job_user
// p.perUsr is empty at each, and after the run (backfill clears it only
// under one).
func TestPlanMonoInRuns(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		site := Config{WeightAge: 1000, WeightJobSize: 100,
			BackfillInterval: rapid.Int64Range(0, 60).Draw(rt, "bfi"), BackfillWindow: rapid.Int64Range(0, 4000).Draw(rt, "bfw"),
			BackfillResolution: rapid.Int64Range(0, 300).Draw(rt, "bfr"), BackfillMaxJobUser: rapid.Int64Range(0, 3).Draw(rt, "bfu"),
			OverTimeLimit: rapid.Int64Range(0, 200).Draw(rt, "otl"), NamedNodes: rapid.Bool().Draw(rt, "named"),
			PartitionNames: map[int64]string{0: "p0", 1: "p1", 2: "nope"}}
		for i := range rapid.IntRange(0, 2).Draw(rt, "partitions") {
			pt := Partition{Name: []string{"p0", "p1"}[i], Default: i == 0}
			if rapid.Bool().Draw(rt, "node set") {
				pt.Nodes = []string{"n1"}
			}
			site.Partitions = append(site.Partitions, pt)
		}
		machine, P := sched.Config{MachineSize: 16}, int64(16)
		if rapid.Bool().Draw(rt, "nodes") {
			c := rapid.Int64Range(1, 4).Draw(rt, "count")
			machine, P = sched.Config{Nodes: []swf.Node{{Name: "n", Count: c, Cores: 4}}, KeepShares: true}, 4*c
		}
		var jobs []swf.Job
		var at int64
		for i := range rapid.IntRange(20, 40).Draw(rt, "jobs") {
			at += rapid.SampledFrom([]int64{0, 0, 7, 30, 61}).Draw(rt, "gap")
			j := swf.NewJob()
			size := rapid.Int64Range(1, P).Draw(rt, "size")
			j.ID, j.Submit, j.User, j.AllocProcs, j.ReqProcs = int64(i+1), at, rapid.Int64Range(1, 3).Draw(rt, "user"), size, size
			j.RunTime, j.ReqTime = rapid.Int64Range(0, 3000).Draw(rt, "run"), rapid.Int64Range(-1, 2000).Draw(rt, "limit")
			j.Queue = rapid.Int64Range(-1, 2).Draw(rt, "queue")
			if n := rapid.Int64Range(0, 2).Draw(rt, "node demand"); n > 0 && len(machine.Nodes) > 0 {
				j.Demand = &swf.Demand{Nodes: n}
			}
			jobs = append(jobs, j)
		}
		p, err := New(site, machine)
		if err != nil {
			rt.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(rt, "seed"), 1))
		check := func(now int64) {
			// A cycle clears p.perUsr only under bf_max_job_user: without
			// one it must be empty here, every other user having cleared it.
			if site.BackfillMaxJobUser == 0 && len(p.perUsr) != 0 {
				rt.Fatalf("at %d: perUsr holds %v without bf_max_job_user", now, p.perUsr)
			}
			pl := &p.plan
			for i := pl.mono + 1; i < len(pl.fr); i++ {
				if pl.fr[i] < pl.fr[i-1] {
					rt.Fatalf("at %d: the plan falls at %d, after mono %d: %v %v", now, i, pl.mono, pl.ts, pl.fr)
				}
			}
			for range 2 {
				a, b := *pl, *pl
				a.ts, a.fr = slices.Clone(pl.ts), slices.Clone(pl.fr)
				b.ts, b.fr = slices.Clone(pl.ts), slices.Clone(pl.fr)
				b.mono = len(b.ts) + 1 // the shortcut off
				n, d := rng.Int64N(P+2), rng.Int64N(3000)
				ta, ia, oka := a.fit(n, d, now+p.bfWin)
				tb, ib, okb := b.fit(n, d, now+p.bfWin)
				if ta != tb || ia != ib || oka != okb {
					rt.Fatalf("at %d: fit(%d, %d) = %d, %d, %v; without mono %d, %d, %v (plan %v %v, mono %d, held %+v)",
						now, n, d, ta, ia, oka, tb, ib, okb, pl.ts, pl.fr, pl.mono, pl.pend)
				}
			}
		}
		obs := sched.Hooks{
			Start:       func(now int64, _ *swf.Job, _ bool) { check(now) },
			Reservation: func(now int64, _ *swf.Job, _ int64) { check(now) },
		}
		if _, err := p.Run(context.Background(), jobs, obs); err != nil {
			rt.Fatal(err)
		}
		if len(p.perUsr) != 0 {
			rt.Fatalf("perUsr holds %v after the run", p.perUsr)
		}
	})
}

// fitAsProfile is pl.fit(n, d, by) checked against prof.Fit from now:
// the same start, or for one beyond the horizon a time after it and no
// later than the start (if there is one), with an index that holds at
// the start. It reports whether the cycle allocates there (a start
// found within the horizon).
func fitAsProfile(t *testing.T, prof *sched.Profile, pl *plan, n, d, by, now int64) (int64, int, bool) {
	t.Helper()
	want, wok := prof.Fit(n, d, now)
	got, idx, ok := pl.fit(n, d, by)
	if ok && (!wok || want > by) && idx == -1 {
		if got <= by || (wok && got > want) {
			t.Fatalf("fit(%d, %d, %d) = %d, %d; Profile: %d", n, d, by, got, idx, want)
		}
		return got, idx, false
	}
	if ok != wok || (ok && got != want) {
		t.Fatalf("fit(%d, %d, %d) = %d, %v; Profile: %d, %v", n, d, by, got, ok, want, wok)
	}
	if ok && (pl.ts[idx] > got || (idx+1 < len(pl.ts) && pl.ts[idx+1] <= got)) {
		t.Fatalf("fit(%d, %d, %d): index %d does not hold at %d", n, d, by, idx, got)
	}
	return got, idx, ok
}

// TestResvEnd checks the one-division reservation end against Slurm's
// rounding as backfill wrote it, around time 0 too.
func TestResvEnd(t *testing.T) {
	for _, res := range []int64{1, 7, 60} {
		p := &Policy{bfRes: res}
		for now := int64(-130); now <= 130; now++ {
			begin := now / res * res
			for tt := now + 1; tt <= now+70; tt++ {
				for limit := int64(0); limit <= 150; limit += 3 {
					s := max(tt/res*res, begin)
					want := max((tt+limit)/res*res, s+res)
					if got := p.resvEnd(tt, limit, begin); got != want {
						t.Fatalf("res %d now %d: resvEnd(%d, %d) = %d, want %d", res, now, tt, limit, got, want)
					}
				}
			}
		}
	}
}

// TestOverdueJobEndGuess: a running job past its time limit, granted
// OverTimeLimit, is planned to end when _guess_job_end says (select/
// cons_tres, Slurm 22.05): its end time plus KillWait (30 s) plus
// OverTimeLimit, not at the next second. One node of 8 CPUs,
// OverTimeLimit 2 minutes. Job 1 (4 CPUs, limit 60 s) runs 150 s: past
// its limit from about 60, killed at about 210 at the latest. Job 2 (8
// CPUs) waits for it: the top job, reserved from job 1's guessed end,
// about 210. Job 3 (4 CPUs, limit 30 s, submitted at 70, when job 1 is
// overdue) fits in the 4 free CPUs before then, so a backfill cycle starts it
// before job 1 ends (150). Planned at now+1, job 1 would hand job 2 a
// reservation from the next second, which job 3 would overlap: job 3
// would wait for job 2 (to 200).
func TestOverdueJobEndGuess(t *testing.T) {
	for _, named := range []bool{false, true} {
		jobs := []swf.Job{nodeJob(1, 0, 4, 150, 60), nodeJob(2, 1, 8, 50, 60), nodeJob(3, 70, 4, 20, 30)}
		p, err := New(Config{NamedNodes: named, OverTimeLimit: 120},
			sched.Config{Nodes: []swf.Node{{Name: "n", Count: 1, Cores: 8}}})
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.Run(context.Background(), jobs)
		if err != nil {
			t.Fatal(err)
		}
		start := map[int64]int64{}
		for _, r := range res.Records {
			start[r.Job.ID] = r.Start
		}
		if start[1] > 10 || start[3] < 70 || start[3] >= 150 || start[2] < 150 {
			t.Errorf("NamedNodes %v: starts %v; want job 1 within 10 s, job 3 backfilled in [70, 150), job 2 from 150", named, start)
		}
	}
}

// TestRunningEndsOrder: runningEnds yields every running job once, with
// its endGuess, in ascending time, whatever the mix of overdue jobs.
func TestRunningEndsOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 70))
	for range 500 {
		p := &Policy{}
		p.cfg.OverTimeLimit = rng.Int64N(3) * 60
		k := rng.IntN(3)
		p.cfg.KillWait = []int64{0, -1, 5}[k]
		kw := []int64{30, 0, 5}[k] // KillWait's seconds
		now := int64(1000)
		p.running = nil
		for i := range rng.IntN(12) {
			p.running = append(p.running, &jobRec{id: int64(i), start: now - rng.Int64N(200), limit: rng.Int64N(300)})
		}
		slices.SortFunc(p.running, cmpEnd)
		seen := map[*jobRec]bool{}
		last := int64(-1)
		for t1, r := range p.runningEnds(now) {
			if seen[r] || t1 != p.endGuess(r, now) || t1 < last {
				t.Fatalf("OTL %d: %v at %d after %d (seen %v, guess %d)", p.cfg.OverTimeLimit, r.id, t1, last, seen[r], p.endGuess(r, now))
			}
			if e := r.start + r.limit; e <= now && t1 != max(e+p.cfg.OverTimeLimit+kw, now+1) || e > now && t1 != e {
				t.Fatalf("job ending at %d, now %d, OTL %d, KillWait %d: guessed %d", e, now, p.cfg.OverTimeLimit, kw, t1)
			}
			seen[r], last = true, t1
		}
		if len(seen) != len(p.running) {
			t.Fatalf("%d of %d jobs yielded", len(seen), len(p.running))
		}
	}
}

// TestReleaseEnds: releaseEnds makes the plan that release makes of the
// same jobs, one at a time, ties and jobs ending at now among them.
func TestReleaseEnds(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 80))
	for range 500 {
		now, free := int64(1000), rng.Int64N(20)
		var run []*jobRec
		for i := range rng.IntN(15) {
			run = append(run, &jobRec{id: int64(i), start: now - rng.Int64N(50), limit: 50 + rng.Int64N(40), cpus: 1 + rng.Int64N(8)})
		}
		slices.SortFunc(run, cmpEnd)
		var one, all plan
		one.reset(now, free)
		all.reset(now, free)
		for _, r := range run {
			one.release(r.start+r.limit, r.cpus)
		}
		all.releaseEnds(run)
		if !slices.Equal(one.ts, all.ts) || !slices.Equal(one.fr, all.fr) {
			t.Fatalf("release: %v %v; releaseEnds: %v %v", one.ts, one.fr, all.ts, all.fr)
		}
	}
}
