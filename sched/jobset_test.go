package sched

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchq/batchq/swf"
)

// jobSet agrees with a sorted slice through random insertions, deletions
// (of present and absent jobs), corrections (later) and walks, in both orders, over sizes that
// split and merge chunks many times.
func TestJobSetMatchesSortedSlice(t *testing.T) {
	for _, byShort := range []bool{false, true} {
		r := rand.New(rand.NewPCG(5, 6))
		set := &jobSet{byShort: byShort}
		var want []*Job
		cmp := func(a, b *Job) int {
			switch {
			case set.before(a, b, set.keyOf(b)):
				return -1
			case set.before(b, a, set.keyOf(a)):
				return 1
			}
			return 0
		}
		var all []*Job
		for step := range 40000 {
			target := 600 // grow to ~600, shrink to ~0, grow again
			if step/10000%2 == 1 {
				target = 0
			}
			if len(want) < target || len(want) == 0 || r.IntN(3) == 0 && len(want) < 2*target+1 {
				// few distinct keys, so that the later keys (start, ID, record or seq) decide
				j := &Job{j: swf.Job{ID: r.Int64N(50)}, jobLive: jobLive{idx: step, seq: int64(step), p: r.Int64N(20), start: r.Int64N(20)}}
				all = append(all, j)
				set.ReplaceOrInsert(j)
				i, _ := slices.BinarySearchFunc(want, j, cmp)
				want = slices.Insert(want, i, j)
			} else if r.IntN(4) == 0 {
				// a correction: a member's prediction grows (by a step
				// within its chunk, or past the chunk's end), later moves it
				j := all[r.IntN(len(all))]
				i := slices.Index(want, j)
				if i < 0 {
					continue
				}
				want = slices.Delete(want, i, i+1)
				j.p += 1 + r.Int64N(3)
				if r.IntN(8) == 0 {
					j.p += 20
				}
				set.later(j)
				i, _ = slices.BinarySearchFunc(want, j, cmp)
				want = slices.Insert(want, i, j)
			} else {
				j := all[r.IntN(len(all))]
				// (by identity: cmp reads a cached key, and a job that
				// left may have any other, which Delete searches by
				// first)
				i := slices.Index(want, j)
				found := i >= 0
				if !found && r.IntN(2) == 0 {
					j.key = r.Int64N(20)
				}
				if set.Delete(j) != found {
					t.Fatalf("step %d: Delete = %v, want %v", step, !found, found)
				}
				if found {
					want = slices.Delete(want, i, i+1)
				}
			}
			if step%97 != 0 {
				continue
			}
			var got []*Job
			set.Ascend(func(j *Job) bool { got = append(got, j); return true })
			if set.Len() != len(want) || !slices.Equal(got, want) {
				t.Fatalf("step %d (byShort %v): %d jobs walked, Len %d, want %d in order", step, byShort, len(got), set.Len(), len(want))
			}
			if len(want) > 0 {
				if m, _ := set.Min(); m != want[0] {
					t.Fatalf("step %d: Min is not the first job", step)
				}
				k := r.IntN(len(want))
				got = got[:0]
				set.AscendGreaterOrEqual(want[k], func(j *Job) bool { got = append(got, j); return len(got) < 10 })
				if !slices.Equal(got, want[k:min(k+10, len(want))]) {
					t.Fatalf("step %d: AscendGreaterOrEqual from %d differs", step, k)
				}
			}
			if n := len(set.chunks); n > 1+8*len(want)/maxChunk {
				t.Fatalf("step %d: %d chunks for %d jobs", step, n, len(want))
			}
		}
	}
}
