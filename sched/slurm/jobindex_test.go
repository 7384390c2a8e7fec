package slurm

import "testing"

// TestJobIndex checks the index against a map, with IDs in the slice's
// range, beyond it and below 0.
func TestJobIndex(t *testing.T) {
	var x jobIndex
	want := map[int64]*jobRec{}
	ids := []int64{7, 0, -5, denseIDs - 1, denseIDs, 1 << 40, 3, 100000}
	for round := range 3 {
		for i, id := range ids {
			if (i+round)%3 == 0 {
				if _, ok := want[id]; ok {
					x.del(id)
					delete(want, id)
				}
				continue
			}
			if _, ok := want[id]; !ok {
				r := &jobRec{id: id}
				x.put(r)
				want[id] = r
			}
		}
		for _, id := range append(ids, 8, -6, denseIDs+1) {
			got, ok := x.get(id)
			if w, wok := want[id]; got != w || ok != wok {
				t.Fatalf("round %d: get(%d) = %p, %v; want %p, %v", round, id, got, ok, w, wok)
			}
		}
		if x.len() != len(want) {
			t.Fatalf("round %d: len %d, want %d", round, x.len(), len(want))
		}
	}
	x.clear()
	if _, ok := x.get(7); ok || x.len() != 0 {
		t.Fatal("clear left a record")
	}
	// The slice's doubling stops at denseIDs (it went to 1.2 Mi here).
	var y jobIndex
	for _, id := range []int64{600000, 700000, denseIDs - 1} {
		r := &jobRec{id: id}
		y.put(r)
		if got, ok := y.get(id); !ok || got != r {
			t.Fatalf("get(%d) after put: %p, %v", id, got, ok)
		}
		if len(y.dense) > denseIDs {
			t.Fatalf("after ID %d the slice holds %d IDs, over denseIDs = %d", id, len(y.dense), denseIDs)
		}
	}
}
