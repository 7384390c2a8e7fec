package sched

import (
	"testing"

	"pgregory.net/rapid"
)

// checkFitBefore fails t unless fitBefore(n, d, from, until, r) on p,
// the profile holding the slot of n over [r, r+d), is Fit on q (p with
// the slot given back), a fit at or after until counting as r; and,
// for a fit before r, its index is the first point at or after it
// (moveAt's and shift's precondition).
func checkFitBefore(t interface{ Fatalf(string, ...any) }, p, q *Profile, n, d, from, until, r int64) {
	want, ok := q.Fit(n, d, from)
	if !ok || want >= until {
		want = r
	}
	got, at := p.fitBefore(n, d, from, until, r)
	if got != want {
		t.Fatalf("fitBefore(%d, %d, %d, %d, %d) on %v = %d; Fit after giving back %d", n, d, from, until, r, p.pts, got, want)
	}
	if got != r && at != p.search(got) {
		t.Fatalf("fitBefore(%d, %d, %d, %d, %d) on %v = %d at index %d; the first point at or after it is %d", n, d, from, until, r, p.pts, got, at, p.search(got))
	}
}

// fitBeforeAll checks fitBefore (checkFitBefore) on every profile that
// profiles gives, slot of d from 0 to 4 and n from 0 to 3 held at r from
// 0 to rMax and overdrawn nowhere, from from -1 and bound until ≤ r, as
// conservativePass calls it, and returns the number of cases.
func fitBeforeAll(t *testing.T, profiles func(func([]point)), rMax int64) int {
	var p, q Profile
	cases := 0
	profiles(func(base []point) {
		for r := int64(0); r <= rMax; r++ {
			for d := int64(0); d <= 4; d++ {
				for n := int64(0); n <= 3; n++ {
					p.pts = append(p.pts[:0], base...)
					p.Allocate(r, d, n)
					if d > 0 && p.least(r, r+d) < 0 {
						continue
					}
					q.pts = append(q.pts[:0], p.pts...)
					q.Allocate(r, d, -n)
					for from := int64(-1); from < r; from++ {
						for until := from + 1; until <= r; until++ {
							cases++
							checkFitBefore(t, &p, &q, n, d, from, until, r)
						}
					}
				}
			}
		}
	})
	return cases
}

// fourPoints calls f with every profile of four points at times from 0
// to 7, free from -1 to 3, no two neighbours equal (smallProfiles has
// those of up to three).
func fourPoints(f func([]point)) {
	frees := []int64{-1, 0, 1, 2, 3}
	for _, a := range frees {
		for t1 := int64(1); t1 <= 7; t1++ {
			for t2 := t1 + 1; t2 <= 7; t2++ {
				for t3 := t2 + 1; t3 <= 7; t3++ {
					for _, b := range frees {
						for _, c := range frees {
							for _, e := range frees {
								if b != a && c != b && e != c {
									f([]point{{0, a}, {t1, b}, {t2, c}, {t3, e}})
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestFitBeforeExhaustiveFour is TestFitBeforeExhaustive on every
// profile of four points: fitBefore's first window, read from its end
// back, then walks up to three steps (two at most on three points), past
// steps of n or more to one of fewer before the window's first, or
// through one of fewer in its middle. Slots d and n from 0, bounds
// until ≤ r, the slot overdrawn nowhere, as conservativePass calls it;
// the index, for a fit before r, is the first point at or after it.
func TestFitBeforeExhaustiveFour(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: 28 M cases, 2 s")
	}
	t.Logf("%d cases", fitBeforeAll(t, fourPoints, 9))
}

// TestFitBeforeRapid: fitBefore against Fit (checkFitBefore) on long
// random profiles (TestFitOwnMatchesFit's have up to 13 points, and
// n and d from 1): up to 40 points, so that the first window's backward
// walk crosses many steps; n and d from 0; from before the profile's
// first point; until up to r; the window running past the last point.
func TestFitBeforeRapid(t *testing.T) {
	var p, q Profile
	rapid.Check(t, func(t *rapid.T) {
		now := rapid.Int64Range(0, 50).Draw(t, "now")
		p.pts = append(p.pts[:0], drawSteps(t, "", now, 40)...)
		last := p.pts[len(p.pts)-1].t
		r := now + rapid.Int64Range(0, last-now+40).Draw(t, "r")
		d := rapid.Int64Range(0, 200).Draw(t, "d")
		// a small n mostly: long runs of steps that hold it
		n := rapid.SampledFrom([]int64{0, 1, 1, 2, 3, 5, 8, 12}).Draw(t, "n")
		p.Allocate(r, d, n)
		if d > 0 && p.least(r, r+d) < 0 {
			t.Skip("overdrawn slot: no bound")
		}
		from := rapid.Int64Range(now-10, r).Draw(t, "from")
		until := rapid.Int64Range(from, r).Draw(t, "until")
		q.pts = append(q.pts[:0], p.pts...)
		q.Allocate(r, d, -n)
		checkFitBefore(t, &p, &q, n, d, from, until, r)
	})
}
