package sched

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestFromNowMatchesAppendFrom: fromNow trims a profile in place to what
// appendFrom copies, for random profiles starting at or before now, and
// rebaseWalk on it gives what rebase gives on the untrimmed one.
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
		gg, gs := p.rebaseWalk(got, slices.Clone(diff))
		if !slices.Equal(p.pts, q.pts) || gg != wg || gs != ws {
			t.Fatalf("rebaseWalk: %v %v %v; rebase: %v %v %v", p.pts, gg, gs, q.pts, wg, ws)
		}
	})
}

// rebase is rebaseWalk on a copy of was from now on (appendFrom), was
// left as it is: the version the tests hold rebaseWalk and rebaseRef to
// (conservativePass rebases its last final profile in place).
func (p *Profile) rebase(was, diff []point) (gain span, sound bool) {
	base := p.pts
	gain, sound = p.rebaseWalk(appendFrom(p.spare[:0], was, diff[0].t), diff)
	p.spare = base[:0]
	return gain, sound
}

// appendFrom appends pts from now on to dst: a point at now with the
// free processors then, and the points after it (pts starts at or
// before now).
func appendFrom(dst, pts []point, now int64) []point {
	i, v := stepAt(pts, now)
	return append(append(dst, point{now, v}), pts[i:]...)
}
