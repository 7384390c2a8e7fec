package sched

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestFitTakeMatchesFitAllocate: fitTake is Fit then Allocate at its fit,
// point for point and in its result, on random profiles (overdrawn ones
// and sizes above the last point's free among them, which fit nowhere),
// from the first point, before it and after it.
func TestFitTakeMatchesFitAllocate(t *testing.T) {
	var p, q Profile
	rapid.Check(t, func(t *rapid.T) {
		now := rapid.Int64Range(0, 50).Draw(t, "now")
		pts := drawSteps(t, "", now, 12)
		n := rapid.Int64Range(-2, 24).Draw(t, "n")
		if k := rapid.IntRange(0, len(pts)-1).Draw(t, "k"); k > 0 && rapid.Bool().Draw(t, "merge") {
			// the free at a point less n is the free before it: the
			// slot from there merges the two steps
			n = pts[k].free - pts[k-1].free
		}
		d := rapid.Int64Range(0, 120).Draw(t, "d")
		from := now + rapid.Int64Range(-5, 5).Draw(t, "from")
		p.pts = append(p.pts[:0], pts...)
		q.pts = append(q.pts[:0], pts...)
		got, gotFits := p.fitTake(n, d, from)
		want, wantFits := q.Fit(n, d, from)
		q.Allocate(want, d, n)
		if got != want || gotFits != wantFits {
			t.Fatalf("fitTake(%d, %d, %d) on %v: %d, %v; Fit: %d, %v", n, d, from, pts, got, gotFits, want, wantFits)
		}
		if !slices.Equal(p.pts, q.pts) {
			t.Fatalf("fitTake(%d, %d, %d) on %v left %v; Fit and Allocate %v", n, d, from, pts, p.pts, q.pts)
		}
	})
}

// TestFitFreshMatchesFit: fitFresh of a job holding n over [r, r+d) is
// Fit from now with that slot given back, on random profiles (overdrawn
// ones among them) and slots (before now, at now, after it); a placement
// it reports taken leaves the profile holding the job at its fit (or at
// 0 when none, as Allocate would), any other the profile as it was, with
// t's index when it gives one.
func TestFitFreshMatchesFit(t *testing.T) {
	var p, q Profile
	rapid.Check(t, func(t *rapid.T) {
		now := rapid.Int64Range(0, 50).Draw(t, "now")
		pts := drawSteps(t, "", now, 12)
		n := rapid.Int64Range(1, 24).Draw(t, "n")
		d := rapid.Int64Range(1, 120).Draw(t, "d")
		r := now + rapid.Int64Range(-5, 200).Draw(t, "r")
		p.pts = append(p.pts[:0], pts...)
		p.Allocate(r, d, n) // the job's slot
		held := slices.Clone(p.pts)
		q.pts = append(q.pts[:0], held...)
		q.Allocate(r, d, -n)
		want, wantFits := q.Fit(n, d, now)
		got, at, gotFits := p.fitFresh(n, d, now, r)
		if got != want || gotFits != wantFits {
			t.Fatalf("fitFresh(%d, %d, %d, %d) on %v: %d, %v; Fit with the slot given back: %d, %v", n, d, now, r, held, got, gotFits, want, wantFits)
		}
		switch {
		case at == taken:
			q.Allocate(want, d, n)
			if !slices.Equal(p.pts, q.pts) {
				t.Fatalf("fitFresh(%d, %d, %d, %d) on %v, taken at %d: %v; want %v", n, d, now, r, held, got, p.pts, q.pts)
			}
		case !slices.Equal(p.pts, held):
			t.Fatalf("fitFresh(%d, %d, %d, %d) on %v changed the profile: %v", n, d, now, r, held, p.pts)
		case at >= 0 && got < r && at != p.search(got):
			t.Fatalf("fitFresh(%d, %d, %d, %d) on %v = %d at %d; its first point at or after is %d", n, d, now, r, held, got, at, p.search(got))
		}
	})
}
