package replay

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// The pending heap releases jobs in start order, whatever the pushes.
func TestPendingHeapOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		starts := rapid.SliceOf(rapid.Int64Range(0, 50)).Draw(t, "starts")
		var h pending
		for _, s := range starts {
			h.push(Job{Submit: s / 2, Wait: s - s/2})
		}
		var got []int64
		for len(h) > 0 {
			got = append(got, start(h.pop()))
		}
		want := slices.Clone(starts)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("popped %v, want %v", got, want)
		}
	})
}
