package sched

import (
	"testing"

	"github.com/batchq/batchq/sanitize"
)

// TestAppendExcludedDoubles: the rejected lines' list grows by doubling
// (a new array at 64, 128, 256, … lines), not by append's quarter, whose
// arrays, each touched afresh, were five times the list's bytes; and no
// line is lost or moved by a growth.
func TestAppendExcludedDoubles(t *testing.T) {
	var list []sanitize.Excluded
	arrays, lastCap := 0, 0
	const n = 100_000
	for i := range n {
		list = appendExcluded(list, sanitize.Excluded{Index: i, ID: int64(3 * i), Reason: sanitize.Reason(i % 7)})
		if cap(list) != lastCap {
			arrays++
			if lastCap > 0 && cap(list) < 2*lastCap {
				t.Fatalf("at %d lines the list grew from %d to %d: not doubled", i+1, lastCap, cap(list))
			}
			lastCap = cap(list)
		}
	}
	// 64 · 2^11 = 131,072 ≥ 100,000: 12 arrays.
	if arrays > 12 {
		t.Errorf("%d arrays for %d lines, want at most 12", arrays, n)
	}
	for i, e := range list {
		if e.Index != i || e.ID != int64(3*i) || e.Reason != sanitize.Reason(i%7) {
			t.Fatalf("line %d is %+v after the growths", i, e)
		}
	}
}
