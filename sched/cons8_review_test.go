package sched

import (
	"slices"
	"testing"
)

// smallProfiles calls f with every profile of up to three points at times
// from 0 to 6, free from -1 to 3, no two neighbours equal.
func smallProfiles(f func([]point)) {
	frees := []int64{-1, 0, 1, 2, 3}
	for _, a := range frees {
		f([]point{{0, a}})
		for t1 := int64(1); t1 <= 6; t1++ {
			for _, b := range frees {
				if b == a {
					continue
				}
				f([]point{{0, a}, {t1, b}})
				for t2 := t1 + 1; t2 <= 6; t2++ {
					for _, c := range frees {
						if c != b {
							f([]point{{0, a}, {t1, b}, {t2, c}})
						}
					}
				}
			}
		}
	}
}

// TestFitBeforeExhaustive: fitBefore against Fit after the slot is given
// back (a fit at or after until counting as r) on every small profile,
// slot (d and n from 0) and bound until ≤ r with the slot overdrawn
// nowhere, as conservativePass calls it; and its index, for a t before r,
// is the first point at or after t (moveAt's and shift's precondition),
// but for the route TestFitBeforeIndexInStep shows.
func TestFitBeforeExhaustive(t *testing.T) {
	t.Logf("%d cases", fitBeforeAll(t, smallProfiles, 8))
}

// TestShiftApartExhaustive: shift with its middle ends swapped (a slot
// of n moved from [r, r+d) to [t, t+d), t+d < r) against Allocate(r, d,
// -n) then Allocate(t, d, n) on every small profile and slot, held in the
// profile or not, n from -3 to 3 (0 included), and the index given as
// search(t).
func TestShiftApartExhaustive(t *testing.T) {
	var p, q Profile
	cases := 0
	smallProfiles(func(base []point) {
		for at := int64(0); at <= 7; at++ {
			for d := int64(1); d <= 4; d++ {
				for r := at + d + 1; r <= 10; r++ {
					for n := int64(-3); n <= 3; n++ {
						for _, held := range []bool{false, true} {
							cases++
							p.pts = append(p.pts[:0], base...)
							if held {
								p.Allocate(r, d, n)
							}
							q.pts = append(q.pts[:0], p.pts...)
							p.shift(p.search(at), at, at+d, r, r+d, n)
							q.Allocate(r, d, -n)
							q.Allocate(at, d, n)
							if !slices.Equal(p.pts, q.pts) {
								t.Fatalf("%v held %v: shift(%d, %d, %d, %d, %d): %v; Allocates: %v", base, held, at, at+d, r, r+d, n, p.pts, q.pts)
							}
						}
					}
				}
			}
		}
	})
	t.Logf("%d cases", cases)
}

// TestMoveAtExhaustive: moveAt against the two Allocates of move on every
// small profile and overlapping slot (t < r < t+d), with search(t) as its
// index.
func TestMoveAtExhaustive(t *testing.T) {
	var p, q Profile
	smallProfiles(func(base []point) {
		for at := int64(0); at <= 7; at++ {
			for r := at + 1; r <= 8; r++ {
				for d := r - at + 1; d <= r-at+4; d++ {
					for n := int64(-3); n <= 3; n++ {
						for _, held := range []bool{false, true} {
							p.pts = append(p.pts[:0], base...)
							if held {
								p.Allocate(r, d, n)
							}
							q.pts = append(q.pts[:0], p.pts...)
							p.moveAt(p.search(at), at, r, d, n)
							q.Allocate(at, r-at, n)
							q.Allocate(at+d, r-at, -n)
							if !slices.Equal(p.pts, q.pts) {
								t.Fatalf("%v held %v: moveAt(%d, %d, %d, %d): %v; Allocates: %v", base, held, at, r, d, n, p.pts, q.pts)
							}
						}
					}
				}
			}
		}
	})
}

// TestFitBeforeIndexInStep: a fit at from inside a step that runs past r
// (the slot's first point coalesced with the step before it) returns the
// index of that step's point, before t, not the first at or after t;
// moveAt or shift from that index put the points out of order. The
// closed return now steps over it (back from int(u)+b2i(q.t < from)).
// conservativePass does not reach it while a start before w.from stays
// blocked (the step's own start would fit), but nothing checks that.
func TestFitBeforeIndexInStep(t *testing.T) {
	var p, q Profile
	p.pts = []point{{0, -1}, {1, 1}, {5, 2}} // the slot [3, 5) of 1 held
	q.pts = append(q.pts[:0], p.pts...)
	got, at := p.fitBefore(1, 2, 2, 3, 3)
	if got != 2 {
		t.Fatalf("fitBefore = %d, want 2", got)
	}
	if at != p.search(got) {
		p.moveAt(at, got, 3, 2, 1)
		q.Allocate(got, 1, 1)
		q.Allocate(got+2, 1, -1)
		t.Errorf("fitBefore's index %d, first point at or after %d is %d; moveAt then gives %v, the Allocates %v", at, got, q.search(got), p.pts, q.pts)
	}
}
