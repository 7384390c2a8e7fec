package slurm

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// TestPlanAsProfile checks the backfill plan against sched.Profile, whose
// cut-down copy it is: the same releases, then queries each followed by
// the allocation a cycle makes, must find the same times (or, for a start
// beyond a horizon, a time after it and no later, if there is one),
// also when a query no smaller than the last one that found a start
// scans from that start.
func TestPlanAsProfile(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 5))
	for round := range 2000 {
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
		for q := range 30 {
			n, d := rng.Int64N(40), rng.Int64N(200)-5
			want, wok := prof.Fit(n, d, now)
			// A horizon: none, or one the earliest start may pass.
			by := int64(1 << 62)
			if rng.IntN(2) == 0 {
				by = now + rng.Int64N(400)
			}
			got, idx, ok := pl.fit(n, d, by)
			if ok && (!wok || want > by) && idx == -1 {
				// Beyond the horizon: a time after it, no later than the
				// start (if there is one).
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
			if pl.ts[idx] > got || (idx+1 < len(pl.ts) && pl.ts[idx+1] <= got) {
				t.Fatalf("round %d query %d: index %d does not hold at %d", round, q, idx, got)
			}
			// A reservation later than the fit, as a cycle makes one.
			s := got + rng.Int64N(3)
			dd := 1 + rng.Int64N(150)
			prof.Allocate(s, dd, n)
			pl.allocate(s, dd, n, idx)
		}
	}
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
// cons_tres, Slurm 22.05): its end time plus OverTimeLimit (KillWait left
// out: the model kills at once), not at the next second. One node of 8
// CPUs, OverTimeLimit 2 minutes. Job 1 (4 CPUs, limit 60 s) runs 150 s:
// past its limit from about 60, killed at about 180 at the latest. Job 2 (8 CPUs)
// waits for it: the top job, reserved from job 1's guessed end, 180.
// Job 3 (4 CPUs, limit 30 s, submitted at 70, when job 1 is overdue)
// fits in the 4 free CPUs before 180, so a backfill cycle starts it
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
			if e := r.start + r.limit; e <= now && t1 != max(e+p.cfg.OverTimeLimit, now+1) || e > now && t1 != e {
				t.Fatalf("job ending at %d, now %d, OTL %d: guessed %d", e, now, p.cfg.OverTimeLimit, t1)
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
