package sched

// The profile's fast paths (rebase, fitOwn with a bound, Allocate's one
// walk) against the straightforward versions they replaced, on random
// profiles, point for point.

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// rebaseRef is rebase as one merge of the three profiles, every point of
// each walked: the straightforward version that TestRebaseMatchesMerge
// holds rebase to.
func (p *Profile) rebaseRef(was, old []point) (gain span, sound bool) {
	base := p.pts
	gain, sound = noSpan, true
	if len(base) == 0 {
		return gain, false
	}
	out := p.spare[:0]
	now := base[0].t
	if k, v := stepAt(old, now); v == base[0].free && slices.Equal(old[k:], base[1:]) {
		// The running jobs are as they were (a pass after arrivals
		// alone): was from now on.
		k, v = stepAt(was, now)
		out = append(append(out, point{now, v}), was[k:]...)
		for _, q := range out {
			sound = sound && q.free >= 0
		}
		p.spare, p.pts = base[:0], out
		return gain, sound
	}
	var i, j, k int // the next points of was, base, old
	var vw, vb, vo int64
	for t := now; ; {
		for ; i < len(was) && was[i].t <= t; i++ {
			vw = was[i].free
		}
		for ; j < len(base) && base[j].t <= t; j++ {
			vb = base[j].free
		}
		for ; k < len(old) && old[k].t <= t; k++ {
			vo = old[k].free
		}
		if v := vw + vb - vo; len(out) == 0 || out[len(out)-1].free != v {
			out = append(out, point{t, v})
			sound = sound && v >= 0
		}
		at := t
		t = never
		if i < len(was) {
			t = was[i].t
		}
		if j < len(base) {
			t = min(t, base[j].t)
		}
		if k < len(old) {
			t = min(t, old[k].t)
		}
		if vb > vo {
			gain = gain.join(span{at, t})
		}
		if t == never {
			break
		}
	}
	p.spare, p.pts = base[:0], out
	return gain, sound
}

// TestRebaseMatchesMerge: rebase, which adds base - old (as consDiff
// gives it: steps from now) to was a range at a time, gives the points, gain and soundness of one merge of the three,
// for random profiles (points before now, negative free
// and a base equal to old included).
func TestRebaseMatchesMerge(t *testing.T) {
	var p, q Profile // reused, as conservative backfilling reuses its profile
	rapid.Check(t, func(t *rapid.T) {
		now := rapid.Int64Range(0, 50).Draw(t, "now")
		steps := func(label string, first int64) []point { return drawSteps(t, label, first, 10) }
		base := steps("base", now)
		old := steps("old", now-rapid.Int64Range(0, 20).Draw(t, "oldAt"))
		if rapid.Bool().Draw(t, "same") { // the running jobs as they were
			old = append([]point{{now - 5, base[0].free}}, base[1:]...)
		}
		was := steps("was", now-rapid.Int64Range(0, 20).Draw(t, "wasAt"))
		p.pts = append(p.pts[:0], base...)
		q.pts = append(q.pts[:0], base...)
		gain, sound := p.rebase(was, profileDiff(base, old, now))
		wgain, wsound := q.rebaseRef(was, old)
		if !slices.Equal(p.pts, q.pts) || gain != wgain || sound != wsound {
			t.Fatalf("rebase: %v %v %v; merge: %v %v %v", p.pts, gain, sound, q.pts, wgain, wsound)
		}
	})
}

// drawSteps draws a profile of up to maxLen+1 points from first on, free
// from -3 to 20, no two neighbours equal (as sched's profiles), its draws
// labelled from label.
func drawSteps(t *rapid.T, label string, first int64, maxLen int) []point {
	pts := []point{{first, rapid.Int64Range(-3, 20).Draw(t, label+"free0")}}
	for range rapid.IntRange(0, maxLen).Draw(t, label+"len") {
		at := pts[len(pts)-1].t + rapid.Int64Range(1, 30).Draw(t, label+"dt")
		v := rapid.Int64Range(-3, 20).Draw(t, label+"free")
		if v == pts[len(pts)-1].free {
			v++
		}
		pts = append(pts, point{at, v})
	}
	return pts
}

// TestFitOwnMatchesFit: fitOwn is Fit after the slot is given back, a fit
// from until on counting as r, for random profiles and slots: any
// profile without a bound (until never), and, with one (until ≤ r), a
// slot overdrawn nowhere, as conservative backfilling calls it; so is
// fitBefore there.
func TestFitOwnMatchesFit(t *testing.T) {
	var p, q Profile
	rapid.Check(t, func(t *rapid.T) {
		now := rapid.Int64Range(0, 50).Draw(t, "now")
		pts := drawSteps(t, "", now, 12)
		r := now + rapid.Int64Range(0, 300).Draw(t, "r")
		d := rapid.Int64Range(1, 100).Draw(t, "d")
		n := rapid.Int64Range(1, 12).Draw(t, "n")
		from := now + rapid.Int64Range(-10, r-now).Draw(t, "from") // ≤ r, as sched asks
		until := never
		p.pts = append(p.pts[:0], pts...)
		p.Allocate(r, d, n) // the slot, held
		if rapid.Bool().Draw(t, "bounded") {
			if p.least(r, r+d) < 0 {
				t.Skip("overdrawn slot: no bound")
			}
			until = now + rapid.Int64Range(0, r-now).Draw(t, "until")
		}
		q.pts = append(q.pts[:0], p.pts...)
		q.Allocate(r, d, -n)
		want, wok := q.Fit(n, d, from)
		if wok && want >= until {
			want = r
		}
		if got, ok := p.fitOwn(n, d, from, until, r); got != want || ok != wok {
			t.Fatalf("fitOwn(%d, %d, %d, %d, %d) on %v = %d, %v; Fit after giving back %d, %v", n, d, from, until, r, p.pts, got, ok, want, wok)
		}
		if until <= r {
			got, at := p.fitBefore(n, d, from, until, r)
			if got != want || !wok {
				t.Fatalf("fitBefore(%d, %d, %d, %d, %d) on %v = %d; Fit after giving back %d, %v", n, d, from, until, r, p.pts, got, want, wok)
			}
			if got < r && got >= p.pts[0].t && at != p.search(got) {
				t.Fatalf("fitBefore(%d, %d, %d, %d, %d) on %v = %d at %d; its first point at or after is %d", n, d, from, until, r, p.pts, got, at, p.search(got))
			}
		}
	})
}

// allocateRef is Allocate as a split at t and at t+d, the walk between,
// and the deletion of the points left equal: the straightforward version
// that TestAllocateMatchesSplits holds Allocate to.
func (p *Profile) allocateRef(t, d, n int64) {
	end := t + d
	if len(p.pts) == 0 || d <= 0 || end <= p.pts[0].t {
		return
	}
	i := p.split(max(t, p.pts[0].t))
	j := p.split(end)
	for k := i; k < j; k++ {
		p.pts[k].free -= n
	}
	if j < len(p.pts) && p.pts[j].free == p.pts[j-1].free {
		p.pts = slices.Delete(p.pts, j, j+1)
	}
	if i > 0 && p.pts[i].free == p.pts[i-1].free {
		p.pts = slices.Delete(p.pts, i, i+1)
	}
}

// TestAllocateMatchesSplits: Allocate gives the points of allocateRef for
// random profiles (no equal neighbours, as sched keeps them) and slots
// (at points, between, before now, past the last, n of 0 or negative).
func TestAllocateMatchesSplits(t *testing.T) {
	var p, q Profile
	rapid.Check(t, func(t *rapid.T) {
		now := rapid.Int64Range(0, 50).Draw(t, "now")
		pts := drawSteps(t, "", now, 10)
		p.pts = append(p.pts[:0], pts...)
		q.pts = append(q.pts[:0], pts...)
		for range rapid.IntRange(1, 24).Draw(t, "ops") {
			at := now + rapid.Int64Range(-40, 300).Draw(t, "t")
			d := rapid.Int64Range(-2, 100).Draw(t, "d")
			n := rapid.Int64Range(-8, 8).Draw(t, "n")
			p.Allocate(at, d, n)
			q.allocateRef(at, d, n)
			if !slices.Equal(p.pts, q.pts) {
				t.Fatalf("Allocate(%d, %d, %d): %v; splits: %v", at, d, n, p.pts, q.pts)
			}
		}
	})
}

// TestMoveMatchesAllocates: move gives the points of the two Allocates it
// stands for (the slot's part before the old one taken, its part after
// the new one given back) for random profiles and overlapping slots (held
// in the profile or not, at points, between, before now, past the last, n
// of 0 or negative); and shift so for slots apart, and swap for slots
// end to end.
func TestMoveMatchesAllocates(t *testing.T) {
	var p, q Profile
	rapid.Check(t, func(t *rapid.T) {
		now := rapid.Int64Range(0, 50).Draw(t, "now")
		pts := drawSteps(t, "", now, 10)
		p.pts = append(p.pts[:0], pts...)
		q.pts = append(q.pts[:0], pts...)
		for range rapid.IntRange(1, 24).Draw(t, "ops") {
			// on a grid of 3 seconds the ends meet the profile's
			// points more often
			g := int64(rapid.IntRange(1, 3).Draw(t, "grid"))
			at := now + g*rapid.Int64Range(-13, 100).Draw(t, "t")
			r := at + g*rapid.Int64Range(1, 20).Draw(t, "r-t")
			d := r - at + g*rapid.Int64Range(1, 33).Draw(t, "t+d-r")
			n := rapid.Int64Range(-8, 8).Draw(t, "n")
			if rapid.Bool().Draw(t, "held") { // the slot in the profile, as a job's
				p.Allocate(r, d, n)
				q.Allocate(r, d, n)
			}
			if apart := r - at - 1; apart >= 1 && at >= p.pts[0].t && rapid.Bool().Draw(t, "apart") {
				// a slot that ends before the old one begins (shift
				// with r and e swapped)
				d = rapid.Int64Range(1, apart).Draw(t, "d apart")
				most := p.shift(p.search(at), at, at+d, r, r+d, n)
				q.Allocate(r, d, -n)
				q.Allocate(at, d, n)
				if !slices.Equal(p.pts, q.pts) {
					t.Fatalf("shift(%d, %d, %d, %d): %v; Allocates: %v", at, at+d, r, r+d, p.pts, q.pts)
				}
				if want := q.most(r, r+d); most != want {
					t.Fatalf("shift(%d, %d, %d, %d) on %v: the most free over the slot given back %d, want %d", at, at+d, r, r+d, p.pts, most, want)
				}
				continue
			}
			if at >= p.pts[0].t && rapid.Bool().Draw(t, "end to end") {
				// a slot that ends where the old one begins (swap)
				d = r - at
				most := p.swap(p.search(at), at, r, r+d, n)
				q.Allocate(r, d, -n)
				q.Allocate(at, d, n)
				if !slices.Equal(p.pts, q.pts) {
					t.Fatalf("swap(%d, %d, %d): %v; Allocates: %v", at, r, r+d, p.pts, q.pts)
				}
				if want := q.most(r, r+d); most != want {
					t.Fatalf("swap(%d, %d, %d) on %v: the most free over the slot given back %d, want %d", at, r, r+d, p.pts, most, want)
				}
				continue
			}
			most := p.move(at, r, d, n)
			q.Allocate(at, r-at, n)
			q.Allocate(at+d, r-at, -n)
			if !slices.Equal(p.pts, q.pts) {
				t.Fatalf("move(%d, %d, %d, %d): %v; Allocates: %v", at, r, d, n, p.pts, q.pts)
			}
			if want := q.most(at+d, r+d); most != want {
				t.Fatalf("move(%d, %d, %d, %d) to %v: the most free over the part given back %d, want %d", at, r, d, n, p.pts, most, want)
			}
		}
	})
}

// TestMoveSmallExhaustive: move against the two Allocates on every small
// case — a profile of one step (free a from 0, b from T), a slot of
// -4..4 processors moved from [r, r+d) to [t, t+d) with its ends on or
// between the step and each other, held in the profile or not. The rapid
// test above reaches the rarer combinations of equal neighbours only now
// and then (a point kept at t+d for one n alone was caught in 1 of ~340
// draws); here each is met.
func TestMoveSmallExhaustive(t *testing.T) {
	var p, q Profile
	for a := int64(-2); a <= 2; a++ {
		for b := int64(-2); b <= 2; b++ {
			for _, T := range []int64{2, 5, 9} {
				for at := int64(0); at <= 6; at++ {
					for rt := int64(1); rt <= 5; rt++ {
						for extra := int64(1); extra <= 5; extra++ {
							for n := int64(-4); n <= 4; n++ {
								for _, held := range []bool{false, true} {
									r, d := at+rt, rt+extra
									p.pts = append(p.pts[:0], point{0, a}, point{T, b})
									if a == b {
										p.pts = p.pts[:1]
									}
									if held {
										p.Allocate(r, d, n)
									}
									q.pts = append(q.pts[:0], p.pts...)
									most := p.move(at, r, d, n)
									q.Allocate(at, r-at, n)
									q.Allocate(at+d, r-at, -n)
									if !slices.Equal(p.pts, q.pts) {
										t.Fatalf("step %d→%d at %d, held %v: move(%d, %d, %d, %d): %v; Allocates: %v", a, b, T, held, at, r, d, n, p.pts, q.pts)
									}
									if want := q.most(at+d, r+d); most != want {
										t.Fatalf("step %d→%d at %d, held %v: move(%d, %d, %d, %d): the most free over the part given back %d, want %d", a, b, T, held, at, r, d, n, most, want)
									}
								}
							}
						}
					}
				}
			}
		}
	}
}
