package sched

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestFromNowMatchesAppendFrom: fromNow trims a profile in place to what
// appendFrom copies, for random profiles starting at or before now, and
// rebaseOwn on it gives what rebase gives on the untrimmed one.
func TestFromNowMatchesAppendFrom(t *testing.T) {
	var p, q Profile
	rapid.Check(t, func(t *rapid.T) {
		now := rapid.Int64Range(0, 50).Draw(t, "now")
		was := drawSteps(t, "was", now-rapid.Int64Range(0, 40).Draw(t, "wasAt"), 10)
		diff := drawSteps(t, "diff", now, 4)
		want := appendFrom(nil, was, now)
		got := fromNow(slices.Clone(was), now)
		if !slices.Equal(got, want) {
			t.Fatalf("fromNow(%v, %d) = %v, appendFrom %v", was, now, got, want)
		}
		p.pts, q.pts = nil, nil
		wg, ws := q.rebase(was, slices.Clone(diff))
		gg, gs := p.rebaseOwn(got, slices.Clone(diff))
		if !slices.Equal(p.pts, q.pts) || gg != wg || gs != ws {
			t.Fatalf("rebaseOwn: %v %v %v; rebase: %v %v %v", p.pts, gg, gs, q.pts, wg, ws)
		}
	})
}
