package slurm

import (
	"testing"
	"unsafe"

	"github.com/batchq/batchq/internal/denseid"
)

// TestJobIndex checks the index against a map, with IDs in the slice's
// range, beyond it and below 0.
func TestJobIndex(t *testing.T) {
	var x jobIndex
	want := map[int64]*jobRec{}
	ids := []int64{7, 0, -5, denseid.Limit - 1, denseid.Limit, 1 << 40, 3, 100000}
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
		for _, id := range append(ids, 8, -6, denseid.Limit+1) {
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
	// Past a doubling that would overshoot the slice's limit (denseid's
	// TestGrowStopsAtLimit checks its length).
	var y jobIndex
	for _, id := range []int64{600000, 700000, denseid.Limit - 1} {
		r := &jobRec{id: id}
		y.put(r)
		if got, ok := y.get(id); !ok || got != r {
			t.Fatalf("get(%d) after put: %p, %v", id, got, ok)
		}
	}
}

// jobRec's comment promises 192 bytes, three cache lines by use, its
// first field at the start of the first: a field added or moved must
// keep it so, or the comment and the padding say otherwise.
func TestJobRecLayout(t *testing.T) {
	var r jobRec
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("the layout is for 64-bit platforms")
	}
	if s := unsafe.Sizeof(r); s != 192 {
		t.Errorf("jobRec is %d bytes, want 192", s)
	}
	for _, c := range []struct {
		name string
		off  uintptr
		line uintptr
	}{
		{"assoc", unsafe.Offsetof(r.assoc), 0},
		{"held", unsafe.Offsetof(r.held), 1},
		{"minNodes", unsafe.Offsetof(r.minNodes), 1},
		{"user", unsafe.Offsetof(r.user), 2},
	} {
		if c.off/64 != c.line {
			t.Errorf("jobRec.%s at byte %d: cache line %d, want %d", c.name, c.off, c.off/64, c.line)
		}
	}
}
