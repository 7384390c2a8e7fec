package ibl

import (
	"cmp"
	"maps"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// After any puts and drops — jobs appended, inserted anywhere, leaving
// and coming back — the list gives, at every rank, the count and work of
// the jobs before it, summed one by one over a sorted copy, finds every
// key's rank, and pages the jobs in order from any rank.
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
			ref := slices.Collect(maps.Values(in))
			slices.SortFunc(ref, func(a, b *tracked) int {
				return cmp.Or(cmp.Compare(a.Submit, b.Submit), cmp.Compare(a.ID, b.ID))
			})
			if l.live() != len(ref) {
				t.Fatalf("live() = %d, want %d", l.live(), len(ref))
			}
			var want sums
			for i := range len(ref) + 1 {
				if got := l.before(i); got != want {
					t.Fatalf("before(%d) = %+v, want %+v (%d jobs)", i, got, want, len(ref))
				}
				if i == len(ref) {
					if l.total() != want {
						t.Fatalf("total() = %+v, want %+v", l.total(), want)
					}
					break
				}
				if r, ok := l.find(ref[i].Submit, ref[i].ID); r != i || !ok {
					t.Fatalf("find(job %d) = %d, %v, want %d, true", ref[i].ID, r, ok, i)
				}
				page := l.from(i, 7)
				for k, j := range page {
					if j != ref[i+k].Job {
						t.Fatalf("from(%d, 7)[%d] = job %d, want %d", i, k, j.ID, ref[i+k].ID)
					}
				}
				if len(page) != min(7, len(ref)-i) {
					t.Fatalf("from(%d, 7): %d jobs of %d", i, len(page), len(ref))
				}
				want.add(waitSums(ref[i]))
			}
		}
	})
}

// A flurry — jobs submitted in the same second, which qbets/replay feeds
// queue by queue, so that most are put before the last job by id — costs
// O(log n) a job: the sorted slice of slots it was cost N²/2 moves (64
// times the jobs cost 4,750 times as much, 9.3 s for 65,536; 340 times
// with the tree, 75 ms).
// Wall times, the best of 3: 64 times the jobs must not cost 1,000 times
// as much.
func TestWaitListFlurry(t *testing.T) {
	cost := func(n int64) time.Duration {
		best := time.Duration(1<<63 - 1)
		for range 3 {
			var l waitList
			t0 := time.Now()
			for q := range int64(2) { // two queues: the odd ids, then the even ones
				for i := range n / 2 {
					l.put(&tracked{Job: Job{ID: 2*i + 1 - q, Submit: 1000, Cores: 1, ReqTime: 60}})
				}
			}
			best = min(best, time.Since(t0))
			if l.live() != int(n) {
				t.Fatalf("%d jobs put, %d in the list", n, l.live())
			}
		}
		return best
	}
	small, large := cost(1<<10), cost(1<<16)
	t.Logf("a flurry of 1,024 jobs: %v; of 65,536: %v", small, large)
	if large > 1000*max(small, time.Microsecond) {
		t.Errorf("a flurry of 65,536 jobs: %v, of 1,024: %v: the cost grows as the square", large, small)
	}
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
