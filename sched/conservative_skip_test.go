package sched

import (
	"testing"

	"pgregory.net/rapid"
)

// TestNoStartSkip: after a scan of job A finds no start before its slot
// in [from, until), the scan of a job B settled at or after A, begun
// where noStart.skip says, finds what the whole scan finds, on random
// profiles overdrawn nowhere that hold both slots (as conservative
// backfilling's does between two moves). B may ask fewer processors or
// less time than A, or its starts may begin before A's: then skip must
// not skip.
func TestNoStartSkip(t *testing.T) {
	var p Profile
	rapid.Check(t, func(t *rapid.T) {
		now := rapid.Int64Range(0, 50).Draw(t, "now")
		pts := drawSteps(t, "", now, 12)
		for k := range pts {
			pts[k].free += 12 // room for both slots, mostly
		}
		rA := now + rapid.Int64Range(0, 200).Draw(t, "rA")
		dA := rapid.Int64Range(1, 80).Draw(t, "dA")
		nA := rapid.Int64Range(1, 12).Draw(t, "nA")
		rB := rA + rapid.Int64Range(0, 200).Draw(t, "rB")
		dB := max(1, dA+rapid.Int64Range(-40, 80).Draw(t, "dB"))
		nB := nA + rapid.Int64Range(-4, 8).Draw(t, "nB")
		p.pts = append(p.pts[:0], pts...)
		p.Allocate(rA, dA, nA)
		p.Allocate(rB, dB, nB)
		for _, q := range p.pts {
			if q.free < 0 {
				t.Skip("overdrawn")
			}
		}
		fromA := now + rapid.Int64Range(0, rA-now).Draw(t, "fromA")
		untilA := fromA + rapid.Int64Range(0, rA-fromA).Draw(t, "untilA")
		if got, ok := p.fitOwn(nA, dA, fromA, untilA, rA); !ok || got != rA {
			t.Skip("A starts earlier")
		}
		f := noStart{nA, dA, fromA, untilA, rA}
		w := starts{now + rapid.Int64Range(0, rB-now).Draw(t, "fromB"), 0}
		w.until = w.from + rapid.Int64Range(0, rB-w.from).Draw(t, "untilB")
		want, wok := p.fitOwn(nB, dB, w.from, w.until, rB)
		got, ok := rB, true
		if from := f.skip(nB, dB, rB, w); from < w.until {
			got, ok = p.fitOwn(nB, dB, from, w.until, rB)
		}
		if got != want || ok != wok {
			t.Fatalf("after %+v, B (%d, %d) at %d over %+v: %d, %v; the whole scan %d, %v (profile %v)", f, nB, dB, rB, w, got, ok, want, wok, p.pts)
		}
	})
}
