package slurm

import (
	"math/rand/v2"
	"testing"

	"github.com/batchq/batchq/sched"
)

// TestPlanAsProfile checks the backfill plan against sched.Profile, whose
// cut-down copy it is: the same releases, then queries each followed by
// the allocation a cycle makes, must find the same times (or, for a start
// beyond a horizon, a time after it and no later, if there is one).
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
			if pl.pts[idx].t > got || (idx+1 < len(pl.pts) && pl.pts[idx+1].t <= got) {
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
