package replay

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// The heap pops in time order, whatever the pushes.
func TestHeapOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		times := rapid.SliceOf(rapid.Int64Range(0, 50)).Draw(t, "times")
		var h heap
		for i, s := range times {
			h.push(int32(i), s)
		}
		var got []int64
		for len(h) > 0 {
			_, s := h.pop()
			got = append(got, s)
		}
		want := slices.Clone(times)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("popped %v, want %v", got, want)
		}
	})
}
