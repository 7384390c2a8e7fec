package denseid

import (
	"testing"

	"pgregory.net/rapid"
)

// An Index answers as a map does, for IDs in the slice, past Limit and
// negative; its slice never grows past Limit.
func TestIndexIsAMap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var x Index[*int]
		ref := map[int64]*int{}
		id := rapid.OneOf(rapid.Int64Range(-3, 300), rapid.Int64Range(Limit-3, Limit+3), rapid.Int64())
		for range rapid.IntRange(0, 200).Draw(t, "ops") {
			k := id.Draw(t, "id")
			switch rapid.IntRange(0, 2).Draw(t, "op") {
			case 0:
				v := new(int)
				x.Put(k, v)
				ref[k] = v
			case 1:
				x.Del(k)
				delete(ref, k)
			default:
				if rapid.Bool().Draw(t, "clear") && rapid.IntRange(0, 9).Draw(t, "rare") == 0 {
					x.Clear()
					clear(ref)
				}
			}
			for k, want := range ref {
				if got, ok := x.Get(k); !ok || got != want {
					t.Fatalf("Get(%d) = %v, %v; want %v", k, got, ok, want)
				}
			}
			if _, ok := x.Get(k); ok != (ref[k] != nil) {
				t.Fatalf("Get(%d) found %v, the map %v", k, ok, ref[k] != nil)
			}
			if len(x.dense) > Limit {
				t.Fatalf("slice of %d past Limit", len(x.dense))
			}
		}
	})
}

func TestGrowDoublesWithinLimit(t *testing.T) {
	for _, c := range []struct{ n, i, limit, want int64 }{
		{0, 0, 16, 1}, {0, 5, 16, 6}, {4, 5, 16, 8}, {4, 3, 16, 4}, {8, 15, 16, 16}, {10, 11, 16, 16},
	} {
		if got := int64(len(Grow(make([]int, c.n), c.i, c.limit))); got != c.want {
			t.Errorf("Grow(len %d, %d, %d): len %d, want %d", c.n, c.i, c.limit, got, c.want)
		}
	}
}

// The slice's doubling stops at Limit: IDs 600,000 then 700,000 doubled
// it to 1.2 Mi before the cap (sched/slurm's jobIndex, where this was
// found).
func TestGrowStopsAtLimit(t *testing.T) {
	var x Index[*int]
	for _, id := range []int64{600000, 700000, Limit - 1} {
		v := new(int)
		x.Put(id, v)
		if got, ok := x.Get(id); !ok || got != v {
			t.Fatalf("Get(%d) after Put: %p, %v", id, got, ok)
		}
		if len(x.dense) > Limit {
			t.Fatalf("after ID %d the slice holds %d IDs, over Limit = %d", id, len(x.dense), Limit)
		}
	}
}
