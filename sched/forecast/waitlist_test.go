package forecast

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

// TestWaitGoneModel runs random arrivals and starts (numbers repeated in
// some runs) through Online's waiting list and a plain slice that deletes
// the first job of the number from the head, as the list did before gaps:
// the same answers, and after each compact the same jobs in the same
// order.
func TestWaitGoneModel(t *testing.T) {
	for run := range 400 {
		rng := rand.New(rand.NewPCG(uint64(run), 7))
		dupRun := run%4 == 0
		o := &Online{}
		type entry struct{ id, seq int64 }
		var model []entry
		for step := range 300 {
			switch r := rng.IntN(10); {
			case r < 5:
				id := int64(step + 1)
				if dupRun && len(model) > 0 && rng.IntN(8) == 0 {
					id = model[rng.IntN(len(model))].id
				}
				o.arrived++
				j := swf.NewJob()
				j.ID = id
				o.addWaiting(&j)
				model = append(model, entry{id, o.arrived})
			case r < 9:
				id := int64(1 + rng.IntN(step+2))
				want := slices.IndexFunc(model, func(e entry) bool { return e.id == id })
				if want >= 0 {
					model = slices.Delete(model, want, want+1)
				}
				if got := o.removeWaiting(id); got != (want >= 0) {
					t.Fatalf("run %d step %d: removeWaiting(%d) = %v, want %v", run, step, id, got, want >= 0)
				}
			default:
				o.compact()
				if o.gone.n != 0 || len(o.gone.at) != len(o.waiting) || len(o.seq) != len(o.waiting) {
					t.Fatalf("run %d step %d: after compact %d gaps, %d marks, %d seqs for %d jobs", run, step, o.gone.n, len(o.gone.at), len(o.seq), len(o.waiting))
				}
				if len(model) != len(o.waiting) {
					t.Fatalf("run %d step %d: %d waiting, want %d", run, step, len(o.waiting), len(model))
				}
				for i, e := range model {
					if o.waiting[i].ID != e.id || o.seq[i] != e.seq {
						t.Fatalf("run %d step %d: job %d is (%d, arrival %d), want (%d, %d)", run, step, i, o.waiting[i].ID, o.seq[i], e.id, e.seq)
					}
				}
			}
			for _, e := range model {
				if !o.stillWaits(e.seq) {
					t.Fatalf("run %d step %d: arrival %d (job %d) waits, stillWaits says not", run, step, e.seq, e.id)
				}
			}
		}
	}
}

// TestWaitGoneLinear counts the jobs compact visits on a flurry whose jobs
// start in no order of their arrival, then one later question: a few per
// job. Closing up each start's gap at once (or at each start) visited
// half the queue a start: N²/4.
func TestWaitGoneLinear(t *testing.T) {
	for _, n := range []int{2000, 8000} {
		rng := rand.New(rand.NewPCG(1, uint64(n)))
		var jobs []swf.Job
		for i, w := range rng.Perm(n) {
			jobs = append(jobs, job(int64(i+1), 1000, int64(1+w), 60, 1, 120, int64(i%7)))
		}
		jobs = append(jobs, job(int64(n+1), int64(1000+n+10), 0, 60, 1, 120, 0))
		o, err := NewOnline(Config{}, 1_000_000)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := replay.Run(context.Background(), jobs, replay.Options{Train: 0.01}, o); err != nil {
			t.Fatal(err)
		}
		t.Logf("a flurry of %d jobs starting in random order: %d jobs visited by compact", n, o.gone.work)
		if len(o.waiting) != 1 || o.gone.work > 3*n {
			t.Errorf("a flurry of %d jobs: %d left waiting (want the last), %d visited by compact (want at most %d)", n, len(o.waiting), o.gone.work, 3*n)
		}
	}
}
