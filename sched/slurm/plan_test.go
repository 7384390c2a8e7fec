package slurm

import (
	"math/rand/v2"
	"testing"

	"github.com/batchq/batchq/sched"
)

// TestPlanAsProfile checks the backfill plan against sched.Profile, whose
// cut-down copy it is: the same releases, then queries each followed by
// the allocation a cycle makes, must find the same times.
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
			got, idx, ok := pl.fit(n, d)
			if ok != wok || (ok && got != want) {
				t.Fatalf("round %d query %d: fit(%d, %d) = %d, %v; Profile: %d, %v", round, q, n, d, got, ok, want, wok)
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
