package ordstat

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

func TestMatchesSortedSlice(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var s Set
		var ref []int64
		ops := rapid.IntRange(1, 300).Draw(t, "ops")
		for range ops {
			v := rapid.Int64Range(-20, 20).Draw(t, "v")
			if rapid.IntRange(0, 2).Draw(t, "op") == 0 {
				i := slices.Index(ref, v)
				if got := s.Delete(v); got != (i >= 0) {
					t.Fatalf("Delete(%d)=%v, present=%v", v, got, i >= 0)
				}
				if i >= 0 {
					ref = slices.Delete(ref, i, i+1)
				}
			} else {
				s.Insert(v)
				ref = append(ref, v)
			}
			slices.Sort(ref)
			if s.Len() != len(ref) {
				t.Fatalf("Len %d want %d", s.Len(), len(ref))
			}
			for k := 1; k <= len(ref); k++ {
				if got, _ := s.Kth(k); got != ref[k-1] {
					t.Fatalf("Kth(%d)=%d want %d", k, got, ref[k-1])
				}
			}
			probe := rapid.Int64Range(-21, 21).Draw(t, "probe")
			want, _ := slices.BinarySearch(ref, probe+1)
			if got := s.CountLE(probe); got != want {
				t.Fatalf("CountLE(%d)=%d want %d", probe, got, want)
			}
		}
	})
}

func ExampleSet() {
	var s Set
	for _, v := range []int64{30, 10, 20, 10} {
		s.Insert(v)
	}
	s.Delete(10)
	k2, _ := s.Kth(2)
	fmt.Println(s.Len(), k2, s.CountLE(20))
	// Output: 3 20 2
}
