package qbets

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// The blocked multiset agrees with a sorted slice on k-th smallest and
// rank after any inserts and rebuilds.
func TestMultiset(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var m multiset
		var ref []int64
		span := rapid.Int64Range(1, 1<<40).Draw(t, "span")
		for range rapid.IntRange(0, 3000).Draw(t, "ops") {
			if rapid.IntRange(0, 200).Draw(t, "op") == 0 {
				xs := slices.Clone(ref[len(ref)/2:])
				m.build(xs)
				ref = slices.Sorted(slices.Values(ref[len(ref)/2:]))
				continue
			}
			w := rapid.Int64Range(0, span).Draw(t, "w")
			m.insert(w)
			i, _ := slices.BinarySearch(ref, w)
			ref = slices.Insert(ref, i, w)
		}
		if m.len() != len(ref) {
			t.Fatalf("len %d, want %d", m.len(), len(ref))
		}
		for k := 1; k <= len(ref); k += 1 + len(ref)/97 {
			if got := m.kth(k); got != ref[k-1] {
				t.Fatalf("kth(%d) = %d, want %d", k, got, ref[k-1])
			}
		}
		for range 50 {
			v := rapid.Int64Range(-1, span+1).Draw(t, "v")
			if got, want := m.countLE(v), upperBound(ref, v); got != want {
				t.Fatalf("countLE(%d) = %d, want %d", v, got, want)
			}
		}
	})
}
