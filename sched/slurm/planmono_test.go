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
			want, wok := prof.Fit(n, d, now)
			got, idx, ok := pl.fit(n, d, by)
			for i := pl.mono + 1; i < len(pl.fr); i++ {
				if pl.fr[i] < pl.fr[i-1] {
					t.Fatalf("round %d query %d: the plan falls at %d, after mono %d: %v %v", round, q, i, pl.mono, pl.ts, pl.fr)
				}
			}
			if ok && (!wok || want > by) && idx == -1 {
				if got <= by || (wok && got > want) {
					t.Fatalf("round %d query %d: fit(%d, %d, %d) = %d, %d; Profile: %d", round, q, n, d, by, got, idx, want)
				}
				continue
			}
			if ok != wok || (ok && got != want) {
				t.Fatalf("round %d query %d: fit(%d, %d, %d) = %d, %v; Profile: %d, %v", round, q, n, d, by, got, ok, want, wok)
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
// last point: every query walks its span).
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
	})
}
