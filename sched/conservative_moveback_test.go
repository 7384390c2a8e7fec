package sched

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMoveBack slides a profile forward pass after pass as the rebase's
// route does (fromNow, moveBack when little room is left, appends that
// grow it, now and then the profile built in the other buffer) and checks
// that moveBack keeps the points, gives room after them, and never writes
// into an array that is not final's own: the other buffer, and final's
// arrays from before an append or a swap, are checked against copies.
func TestMoveBack(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 34))
	m := &consMemo{}
	other := make([]point, 0, 64) // the profile's other buffer
	var now int64
	m.final = []point{{0, 5}}
	var olds [][]point // arrays final left, with what they held then
	var oldCopies [][]point
	moved := 0
	for pass := range 20000 {
		// final: points after now, at least one, no two at one time
		want := slices.Clone(fromNow(slices.Clone(m.final), now))
		otherCopy := slices.Clone(other[:cap(other)])
		pts := fromNow(m.final, now)
		if cap(pts)-len(pts) < slideRoom {
			before := cap(pts)
			pts = m.moveBack(pts)
			if cap(pts) != before {
				moved++
			}
			if cap(pts)-len(pts) < slideRoom {
				t.Fatalf("pass %d: room %d after moveBack, want at least %d", pass, cap(pts)-len(pts), slideRoom)
			}
		}
		if !slices.Equal(pts, want) {
			t.Fatalf("pass %d: %v, want %v", pass, pts, want)
		}
		for i := range olds {
			if !slices.Equal(olds[i], oldCopies[i]) {
				t.Fatalf("pass %d: an array final had left was written to", pass)
			}
		}
		if !slices.Equal(other[:cap(other)], otherCopy) {
			t.Fatalf("pass %d: moveBack wrote into the other buffer", pass)
		}
		otherCopy = slices.Clone(other[:cap(other)])
		// The pass: points added after the last (an append may grow the
		// array), then now moves on past some of them.
		last := pts[len(pts)-1].t
		for range r.IntN(6) {
			last += 1 + r.Int64N(5)
			pts = append(pts, point{last, r.Int64N(100)})
		}
		if !slices.Equal(other[:cap(other)], otherCopy) {
			t.Fatalf("pass %d: the other buffer was written to", pass)
		}
		if r.IntN(50) == 0 {
			// The profile built in the other buffer; final's array
			// becomes the other buffer (kept, not written by the
			// pass's profile any more: checked from now on).
			built := append(other[:0], pts...)
			other = pts[:0]
			pts = built
		}
		if len(olds) < 8 && r.IntN(100) == 0 {
			olds = append(olds, pts[:len(pts):len(pts)])
			oldCopies = append(oldCopies, slices.Clone(pts))
			pts = slices.Clone(pts) // final moves on in an array of its own
		}
		m.final = pts
		if n := len(pts); n > 1 {
			now = pts[r.IntN(n-1)].t + r.Int64N(2)
		}
	}
	if moved == 0 {
		t.Fatal("no moveBack changed the array")
	}
}
