package ibl

import (
	"testing"
	"time"

	"pgregory.net/rapid"
)

// After any puts and drops — jobs appended, inserted anywhere (each
// rebuilding fen from its slot on), back in their empty slot, leaving,
// swept out — the Fenwick tree gives, before every slot, the count and
// work of the jobs in the slots before it, summed one by one.
func TestWaitListSums(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var l waitList
		in := map[int64]*tracked{}
		for range rapid.IntRange(1, 200).Draw(t, "steps") {
			id := rapid.Int64Range(0, 60).Draw(t, "id")
			if j := in[id]; j != nil {
				l.drop(j)
				delete(in, id)
			} else {
				j := &tracked{Job: Job{ID: id, Submit: rapid.Int64Range(0, 5).Draw(t, "submit"),
					Cores: rapid.Int64Range(0, 1<<40).Draw(t, "cores"), ReqTime: rapid.Int64Range(-1, 1<<40).Draw(t, "req")}}
				l.put(j)
				in[id] = j
			}
			var want sums
			for i := range len(l.slots) + 1 {
				if got := l.before(i); got != want {
					t.Fatalf("before(%d) = %+v, want %+v (%d slots)", i, got, want, len(l.slots))
				}
				if i < len(l.slots) {
					want.add(waitSums(l.slots[i].t))
				}
			}
		}
	})
}

// A job inserted a few slots before the end of the list — one submitted
// at the same time as the last jobs with a smaller id, as karnak stores
// an event up to MaxBackstep late — costs about the same whatever the
// list's length: fen is rebuilt from its slot on, not whole (which made
// each such submit O(n) under karnak's write lock: 4.7 ms behind 100,000
// waiting jobs, against 8 µs). Wall times, so the bound is loose: 256
// times the jobs must not cost 100 times as much (the best of 5 tries;
// about 4.5 times measured under -race on a loaded machine, about 1,400
// times with the whole rebuild).
func TestWaitListInsertNearEnd(t *testing.T) {
	cost := func(n int) time.Duration {
		var l waitList
		for id := range int64(n) {
			l.put(&tracked{Job: Job{ID: 1000 * (id + 1), Cores: 1, ReqTime: 60}})
		}
		best := time.Duration(1<<63 - 1)
		for r := range int64(5) {
			t0 := time.Now()
			for k := range int64(64) { // just before the last job
				l.put(&tracked{Job: Job{ID: 1000*int64(n) - 1 - 64*r - k, Cores: 1, ReqTime: 60}})
			}
			best = min(best, time.Since(t0))
		}
		return best
	}
	small, large := cost(1<<9), cost(1<<17)
	t.Logf("64 jobs inserted before the last: %v behind 512 jobs, %v behind 131,072", small, large)
	if large > 100*max(small, time.Microsecond) {
		t.Errorf("64 jobs inserted before the last: %v behind 131,072 jobs, %v behind 512: the cost grows with the list", large, small)
	}
}
