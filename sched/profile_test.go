package sched

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// horizon bounds the brute-force model: every time the test touches is
// below horizon-maxD, so the model's last second holds forever after.
const (
	horizon = 6000
	maxD    = 60
)

// freeAt is the profile's free processors at t (t ≥ the first point).
func (p *Profile) freeAt(t int64) int64 { return p.pts[p.search(t+1)-1].free }

// TestProfileRapid checks Profile against a per-second array of free
// processors: Reset and Release build the same step function, Allocate
// changes the same seconds, and Fit finds the same earliest slot, for
// random releases (stale, equal and out-of-order times included),
// allocations (negative, zero-length, before now and overdrawing
// included), fits from any time, and the most and fewest processors free
// over a span (most, least; from before now included).
func TestProfileRapid(t *testing.T) {
	var p Profile // reused across checks, as sched reuses it across passes
	rapid.Check(t, func(t *rapid.T) {
		now := rapid.Int64Range(0, 100).Draw(t, "now")
		free := rapid.Int64Range(0, 64).Draw(t, "free")
		model := make([]int64, horizon)
		add := func(from, to, n int64) { // model[from:to] += n
			for s := max(from, now); s < min(to, horizon); s++ {
				model[s] += n
			}
		}
		add(now, horizon, free)
		p.Reset(now, free)
		last := now // a release before the previous one counts at its time
		for range rapid.IntRange(0, 12).Draw(t, "releases") {
			at := now + rapid.Int64Range(-30, 300).Draw(t, "at")
			n := rapid.Int64Range(1, 16).Draw(t, "n")
			p.Release(at, n)
			last = max(last, at)
			add(last, horizon, n)
		}
		check := func(op string) {
			for i := range p.pts {
				if i == 0 && p.pts[0].t != now || i > 0 && p.pts[i].t <= p.pts[i-1].t {
					t.Fatalf("after %s: points %v not ascending from %d", op, p.pts, now)
				}
			}
			for s := now; s < horizon; s++ {
				if got := p.freeAt(s); got != model[s] {
					t.Fatalf("after %s: free at %d = %d, brute force %d", op, s, got, model[s])
				}
			}
		}
		check("releases")
		fit := func(n, d, from int64) (int64, bool) {
			got, ok := p.Fit(n, d, from)
			want, wok := bruteFit(model, n, max(d, 1), max(from, now))
			if got != want || ok != wok {
				t.Fatalf("Fit(%d, %d, %d) = %d, %v; brute force %d, %v", n, d, from, got, ok, want, wok)
			}
			return got, ok
		}
		for range rapid.IntRange(0, 30).Draw(t, "ops") {
			n := rapid.Int64Range(-8, 80).Draw(t, "n")
			d := rapid.Int64Range(-2, maxD).Draw(t, "d")
			from := now + rapid.Int64Range(-30, 400).Draw(t, "from")
			switch rapid.IntRange(0, 3).Draw(t, "op") {
			case 0: // conservative backfilling: take the earliest slot
				if at, ok := fit(n, d, from); ok {
					p.Allocate(at, max(d, 1), n)
					add(at, at+max(d, 1), -n)
				}
			case 1:
				fit(n, d, from)
			case 2: // any slot, even before now or of no length
				p.Allocate(from, d, n)
				if d > 0 {
					add(from, from+d, -n)
				}
			case 3: // the bounds of a span, overdrawn ones included
				if lo, hi := max(from, now), from+max(d, 1); lo < hi {
					w := model[lo:min(hi, horizon)]
					if got, want := p.most(from, hi), slices.Max(w); got != want {
						t.Fatalf("most(%d, %d) = %d, brute force %d", from, hi, got, want)
					}
					if got, want := p.least(from, hi), slices.Min(w); got != want {
						t.Fatalf("least(%d, %d) = %d, brute force %d", from, hi, got, want)
					}
				}
			}
			check("op")
		}
	})
}

// bruteFit is the earliest s ≥ from with model[s:s+d] all ≥ n; past the
// model's end its last value holds forever.
func bruteFit(model []int64, n, d, from int64) (int64, bool) {
	for s := from; s+d <= horizon; s++ {
		if !slices.ContainsFunc(model[s:s+d], func(f int64) bool { return f < n }) {
			return s, true
		}
	}
	return 0, false
}

// TestProfileZero: the zero Profile is empty until Reset.
func TestProfileZero(t *testing.T) {
	var p Profile
	p.Release(10, 5)
	p.Allocate(0, 10, 1)
	if at, ok := p.Fit(1, 1, 0); ok {
		t.Fatalf("zero Profile: Fit = %d, true; want false", at)
	}
	p.Reset(5, 2)
	if at, ok := p.Fit(2, 100, 0); !ok || at != 5 {
		t.Fatalf("after Reset(5, 2): Fit(2, 100, 0) = %d, %v; want 5, true", at, ok)
	}
	if _, ok := p.Fit(3, 1, 0); ok {
		t.Fatal("after Reset(5, 2): 3 processors fit")
	}
}
