package sched

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// eventHeap pops events in (t, ord) order through random pushes and pops,
// with few distinct times so that the kind and the push sequence decide
// (Sim.push makes ord unique: any heap of the same events pops them in
// the same order, so a schedule depends on the order alone).
func TestEventHeapOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var h eventHeap
	var want []event // the events in the heap, unordered
	var seq uint64
	cmp := func(a, b event) int {
		switch {
		case a.before(&b):
			return -1
		case b.before(&a):
			return 1
		}
		return 0
	}
	for step := range 50000 {
		target := 300 // grow to ~300, drain to empty, grow again
		if step/5000%2 == 1 {
			target = 0
		}
		if len(want) == 0 || len(want) < target && r.IntN(3) != 0 {
			e := event{t: r.Int64N(8), ord: uint64(r.IntN(3))<<56 | seq, n: step}
			seq++
			h.push(e)
			want = append(want, e)
			continue
		}
		m := slices.MinFunc(want, cmp)
		i := slices.Index(want, m)
		got := h.pop()
		if got != want[i] {
			t.Fatalf("step %d: popped %+v, want %+v", step, got, want[i])
		}
		want = slices.Delete(want, i, i+1)
		if len(h) != len(want) {
			t.Fatalf("step %d: %d events left, want %d", step, len(h), len(want))
		}
	}
}
