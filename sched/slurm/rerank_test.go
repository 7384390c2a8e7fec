package slurm

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRerankAsWalk checks Fair Tree's incremental ranking on a flat tree
// against the full walk: users with random shares get usage a few at a
// time, many of them tied (no usage yet, or the same usage on the same
// shares), some lose some (which no run does: users only move down
// there), and after each round the ranks rerank gives must be the
// walk's.
func TestRerankAsWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 3))
	for round := range 200 {
		tr := newTree(&Config{})
		users := 1 + rng.IntN(40)
		ids := make([]int, users)
		for u := range ids {
			ids[u] = tr.user(fmt.Sprint("u", u), "root", 1+rng.Int64N(3), 0)
		}
		tr.finish()
		if !tr.flat {
			t.Fatal("a tree of root and users is not flat")
		}
		tr.fairTree()
		for step := range 60 {
			for range 1 + rng.IntN(4) {
				u := ids[rng.IntN(users)]
				use := float64(1 + rng.IntN(3)) // small values: ties
				if rng.IntN(4) == 0 {
					use = rng.Float64() * 100
				}
				tr.addUsage(u, use)
				if rng.IntN(3) == 0 {
					// Usage only grows in a run, so users only move
					// down; rerank holds for any move: move one up.
					idx := ids[rng.IntN(users)]
					a := &tr.a[idx]
					a.usage /= float64(1 + rng.IntN(3))
					if !a.moved {
						a.moved = true
						tr.moved = append(tr.moved, idx)
					}
				}
			}
			if rng.IntN(5) == 0 {
				tr.decay(0.5)
			}
			tr.fairTree()
			got := make([]int32, len(tr.ft))
			for i := range tr.ft {
				got[i] = tr.ft[i].rank
			}
			tr.allStale = true
			tr.fairTree()
			for i := range tr.ft {
				if got[i] != tr.ft[i].rank {
					t.Fatalf("round %d step %d: user %d ranked %d, the walk %d (ranks %v)", round, step, i, got[i], tr.ft[i].rank,
						slices.Clone(got))
				}
			}
		}
	}
}

// TestFairTreeAfterFold: when the decay's scale is folded into the stored
// usage (before it underflows: after 665 half-lives, some 1.8 simulated
// years at a one-day half-life, 28 days at one hour), every key must
// follow, or the users whose usage changed next would be ranked against
// the others' stale keys.
func TestFairTreeAfterFold(t *testing.T) {
	tr := newTree(&Config{})
	a := tr.user("a", "root", 1, 0)
	b := tr.user("b", "root", 1, 0)
	c := tr.user("c", "root", 1, 0)
	tr.finish()
	tr.addUsage(a, 100)
	tr.addUsage(b, 200)
	tr.addUsage(c, 300)
	tr.fairTree()
	tr.decay(1e-150)
	tr.decay(1e-150) // the scale folds
	if tr.scale != 1 {
		t.Fatalf("scale %g, not folded", tr.scale)
	}
	tr.addUsage(c, 0) // c's key again, the others' as they were
	tr.reorder()      // as a calculation does
	fa, fb, fc := tr.fsFactor(a), tr.fsFactor(b), tr.fsFactor(c)
	if !(fa > fb && fb > fc) {
		t.Errorf("factors a %g, b %g, c %g: want a > b > c (usage 100 < 200 < 300, all decayed alike)", fa, fb, fc)
	}
}
