package apq

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// TestMemoEqualsDescribe checks that a System's descriptions, from its
// memo (memo.go), are describe's walk of the same jobs bit for bit, over
// random flurries: arrivals at one instant, some starting and ending at
// it, jobs of another user, none or an unknown size, late arrivals, and
// targets already in the system, per queue or not.
func TestMemoEqualsDescribe(t *testing.T) {
	for seed := range uint64(10) {
		rng := rand.New(rand.NewPCG(seed, 43))
		sys := new(System)
		var waiting, running []int64
		byID := map[int64]Job{}
		id := int64(0)
		now := int64(1000)
		memoed := 0
		for step := range 1500 {
			if rng.IntN(200) == 0 {
				now += int64(1 + rng.IntN(3)) // (mostly one instant)
			}
			switch r := rng.IntN(10); {
			case r < 5 || len(waiting) == 0:
				id++
				j := Job{ID: id, Submit: now, Req: int64(rng.IntN(64)) - 1, ERT: int64(rng.IntN(100000)) - 10, User: int64(rng.IntN(6)) - 1, Queue: int64(rng.IntN(3))}
				if rng.IntN(8) == 0 {
					j.Submit = now - int64(rng.IntN(5000)) // a late arrival
				}
				perQueue := rng.IntN(4) == 0
				got := describe(j, now, sys, perQueue)
				want := describe(j, now, snapshotOf(sys), perQueue)
				equalPoints(t, seed, step, got, want)
				if err := sys.Submit(j); err != nil {
					t.Fatal(err)
				}
				byID[j.ID] = j
				waiting = append(waiting, j.ID)
			case r < 8:
				k := rng.IntN(len(waiting))
				jid := waiting[k]
				waiting = slices.Delete(waiting, k, k+1)
				if err := sys.Start(jid, max(now, byID[jid].Submit)); err != nil {
					t.Fatal(err)
				}
				running = append(running, jid)
			case len(running) > 0:
				k := rng.IntN(len(running))
				if err := sys.End(running[k]); err != nil {
					t.Fatal(err)
				}
				running = slices.Delete(running, k, k+1)
			}
			if len(waiting) > 0 && rng.IntN(10) == 0 {
				// A job of the system (describe skips it by ID).
				j := byID[waiting[rng.IntN(len(waiting))]]
				equalPoints(t, seed, step, describe(j, now, sys, false), describe(j, now, snapshotOf(sys), false))
			}
		}
		if memoed = sys.memo.hits; memoed < 100 {
			t.Errorf("seed %d: %d descriptions from the memo: the test compared walks", seed, memoed)
		}
	}
}

// snapshotOf is sys's state as a Snapshot, which describe walks.
func snapshotOf(sys *System) Snapshot {
	return Snapshot{Wait: slices.Collect(sys.Waiting()), Run: slices.Collect(sys.Running())}
}

func equalPoints(t *testing.T, seed uint64, step int, got, want Point) {
	t.Helper()
	for i := range got.F {
		if math.Float64bits(got.F[i]) != math.Float64bits(want.F[i]) {
			t.Fatalf("seed %d step %d: feature %d = %v, describe's %v", seed, step, i, got.F[i], want.F[i])
		}
	}
	for i := range got.d {
		g, w := got.d[i], want.d[i]
		if g.n != w.n || g.lo != w.lo || g.hi != w.hi || !reflect.DeepEqual(slices.Clip(g.bins), slices.Clip(w.bins)) && (len(g.bins)+len(w.bins) > 0) {
			t.Fatalf("seed %d step %d: distribution %d = %+v, describe's %+v", seed, step, i, g, w)
		}
	}
	if got.Req != want.Req || got.Queue != want.Queue {
		t.Fatalf("seed %d step %d: %d %d, describe's %d %d", seed, step, got.Req, got.Queue, want.Req, want.Queue)
	}
}

// TestMemoLinear counts the jobs walked to describe a flurry of N jobs in
// one second, a third of them starting at once, as qbets/replay drives a
// System: a walk per question was N²/2 of them (2,000,000 for 2,000).
func TestMemoLinear(t *testing.T) {
	for _, n := range []int{2000, 8000} {
		rng := rand.New(rand.NewPCG(1, uint64(n)))
		sys := new(System)
		for i := range int64(500) { // a queue and a machine before the flurry
			j := Job{ID: 1e6 + i, Submit: rng.Int64N(900), Req: 1 + rng.Int64N(64), ERT: rng.Int64N(36000), User: rng.Int64N(50)}
			if err := sys.Submit(j); err != nil {
				t.Fatal(err)
			}
			if i%2 == 0 {
				if err := sys.Start(j.ID, 900); err != nil {
					t.Fatal(err)
				}
			}
		}
		sys.memo.work = 0
		for i := range int64(n) {
			j := Job{ID: i + 1, Submit: 1000, Req: 1 + rng.Int64N(64), ERT: rng.Int64N(36000), User: rng.Int64N(50)}
			describe(j, 1000, sys, i%2 == 0)
			if err := sys.Submit(j); err != nil {
				t.Fatal(err)
			}
			if i%3 == 0 {
				if err := sys.Start(j.ID, 1000); err != nil {
					t.Fatal(err)
				}
			}
		}
		t.Logf("a flurry of %d jobs: %d jobs walked", n, sys.memo.work)
		if sys.memo.work > 4*(n+500) {
			t.Errorf("a flurry of %d jobs walked %d jobs, more than 4 per job", n, sys.memo.work)
		}
	}
}
