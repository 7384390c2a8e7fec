package slurm

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestReprioFast: reprioFast gives each waiting job w.fast's priority
// (with and without Fair Tree's table), leaves the jobs that left the
// queue alone, reports a change exactly when some priority moved, and
// reports the waiting jobs in order exactly when less finds them so:
// ties on tier, priority and submission among them, ordered by ID or not.
func TestReprioFast(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 7))
	for range 5000 {
		w := weights{age: float64(rng.IntN(3) * 500), maxAge: 1 + rng.Int64N(100)}
		w.maxAgeF = float64(w.maxAge)
		if rng.IntN(2) == 0 {
			w.fsByRank = []float64{0, 50, 100}
			w.ft = []ftNode{{rank: 0}, {rank: 1}, {rank: 2}}
		}
		now := int64(100)
		var queue []*jobRec
		for i := range rng.IntN(6) {
			r := &jobRec{id: int64(rng.IntN(4)), tier: rng.Int64N(2), submit: now - rng.Int64N(3)*40, assoc: rng.IntN(3),
				jsW: float64(rng.IntN(2) * 30), prio: rng.Int64N(4) * 50}
			if rng.IntN(4) == 0 {
				r.out, r.running, r.gone = true, rng.IntN(2) == 0, true
			}
			r.id = r.id*10 + int64(i)%2 // IDs that tie on nothing else, in either order
			queue = append(queue, r)
		}
		old := make([]int64, len(queue))
		var waiting []*jobRec
		changed := false
		for i, r := range queue {
			old[i] = r.prio
			if !(r.out && (r.running || r.gone)) {
				want := w.fast(r, now)
				changed = changed || want != r.prio
				waiting = append(waiting, &jobRec{id: r.id, tier: r.tier, submit: r.submit, prio: want})
			}
		}
		inOrder, changes := w.reprioFast(queue, now)
		k := 0
		for i, r := range queue {
			if r.out && (r.running || r.gone) {
				if r.prio != old[i] {
					t.Fatalf("a job out of the queue got priority %d (was %d)", r.prio, old[i])
				}
				continue
			}
			if r.prio != waiting[k].prio {
				t.Fatalf("job %d: priority %d, w.fast %d", r.id, r.prio, waiting[k].prio)
			}
			k++
		}
		if (changes != 0) != changed {
			t.Fatalf("changes %d, some priority moved: %v", changes, changed)
		}
		if want := slices.IsSortedFunc(waiting, less); inOrder != want {
			t.Fatalf("in order %v, less finds %v: %+v", inOrder, want, waiting)
		}
	}
}
