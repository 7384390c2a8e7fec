package sched

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// sortMedian is median as it was before it selected (e650ea7): a sort,
// then the middle value or the mean of the two middle ones.
func sortMedian(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	}
	n := len(s)
	return (s[n/2-1] + s[n/2]) / 2
}

// checkMedian holds median to sortMedian bit for bit, and checks that it
// only reorders xs, leaving the n/2 smallest first.
func checkMedian(t interface{ Fatalf(string, ...any) }, xs []float64) {
	want, in := sortMedian(xs), slices.Clone(xs)
	got := median(xs)
	if math.Float64bits(got) != math.Float64bits(want) {
		t.Fatalf("median %v, the sort's %v (of %v)", got, want, in)
	}
	if slices.Sort(in); !slices.Equal(in, slices.Sorted(slices.Values(xs))) {
		t.Fatalf("median changed the values, not only their order")
	}
	if k := len(xs) / 2; k > 0 && slices.Max(xs[:k]) > slices.Min(xs[k:]) {
		t.Fatalf("nth left a larger value before xs[%d]: %v", k, xs)
	}
}

// TestSelectMedian holds median, found by selection, to the sort it
// replaced: many ties (most reservations are kept to the second), values
// of every size a reservation's |d| can take (up to 2^63, where the
// float64 sum of the two middle values rounds), sorted, reversed, organ
// pipe and random orders, odd and even lengths from 0.
func TestSelectMedian(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 400).Draw(t, "n")
		span := rapid.IntRange(1, 1000).Draw(t, "span")
		huge := rapid.Bool().Draw(t, "huge")
		xs := make([]float64, n)
		for i := range xs {
			if huge {
				xs[i] = math.Abs(float64(rapid.Int64().Draw(t, "d") >> rapid.IntRange(0, 12).Draw(t, "shift")))
			} else {
				xs[i] = float64(rapid.IntRange(0, span).Draw(t, "x"))
			}
		}
		switch rapid.IntRange(0, 3).Draw(t, "order") {
		case 1:
			slices.Sort(xs)
		case 2:
			slices.Sort(xs)
			slices.Reverse(xs)
		case 3: // organ pipe: ascending then descending
			slices.Sort(xs)
			slices.Reverse(xs[len(xs)/2:])
		}
		checkMedian(t, xs)
	})
}

// TestSelectMedianMany checks, as TestSelectMedian does, many more lists
// than rapid draws in its time: of 0 to 300 values over 1 to 2^40 of
// them, where a partition's last swap can leave the pivot's place on
// either side (rapid found the wrong side taken only after thousands).
func TestSelectMedianMany(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 40_000 {
		xs := make([]float64, rng.IntN(301))
		span := []uint64{1, 2, 3, 10, 1000, 1 << 40}[rng.IntN(6)]
		for i := range xs {
			xs[i] = float64(rng.Uint64N(span + 1))
		}
		checkMedian(t, xs)
	}
}

// TestSelectMedianAdversary gives nth the order that makes each round's
// pivot (the value at n/2) the smallest of what is left, so that a round
// removes one value: nth must still answer, through its sort of the rest
// once its rounds are spent. The order comes from playing the partition:
// with the pivot the smallest, a round swaps xs[lo] and xs[k] and moves
// lo on by one.
func TestSelectMedianAdversary(t *testing.T) {
	for _, n := range []int{13, 14, 100, 1001, 4096, 65537} {
		at := make([]int, n) // at[pos]: the value's rank that will be there
		for i := range at {
			at[i] = -1
		}
		id := make([]int, n) // id[pos]: which initial position is there now
		for i := range id {
			id[i] = i
		}
		next, k := 0, n/2
		for lo := 0; lo < k; lo++ {
			at[id[k]] = next // the pivot of this round: the smallest left
			next++
			id[lo], id[k] = id[k], id[lo]
		}
		xs := make([]float64, n)
		for i := range xs {
			if at[i] < 0 {
				at[i] = next
				next++
			}
			xs[i] = float64(at[i])
		}
		checkMedian(t, xs)
	}
}
