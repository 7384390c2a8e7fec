package main

import (
	"math"
	"slices"
	"testing"

	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// TestWaitListsWidth holds the streamed read's waits, kept in 32 bits
// while every one fits and then in 64 (waitLists), to the same waits
// kept in 64 bits from the start: the same comparison (counts, means,
// medians, 95th percentiles, shares that waited, bit for bit), across
// the switch and without it, with waits near ±2^31 on both sides of the
// bound, negative ones (a job that started before its submit time in the
// log, a simulated clock behind the submit) and extremes. Jobs come in
// through streamLog.start (its own 32-bit append) and waitLists.add.
func TestWaitListsWidth(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 300).Draw(rt, "n")
		gen := rapid.OneOf(rapid.Int64Range(-5, 1<<20),
			rapid.Int64Range(math.MaxInt32-2, math.MaxInt32+2), rapid.Int64Range(math.MinInt32-2, math.MinInt32+2),
			rapid.Int64Range(-(1<<33), 1<<33), rapid.Just(int64(math.MinInt64+1)), rapid.Just(int64(math.MaxInt64)))
		small := rapid.Int64Range(0, 1<<20)
		wide := rapid.Bool().Draw(rt, "wide")
		var w waitLists
		l := streamLog{from: math.MaxInt64}
		var logged, simulated []int64
		for i := range n {
			a, b := small.Draw(rt, "logged"), small.Draw(rt, "simulated")
			if wide {
				a, b = gen.Draw(rt, "logged"), gen.Draw(rt, "simulated")
			}
			if i%2 == 0 {
				w.add(a, b)
			} else if a >= 0 {
				// start's own path: a logged wait of 0 or more only.
				j := swf.NewJob()
				j.Wait, j.Submit, j.AllocProcs = a, 0, 1
				l.waits = w
				l.start(b, &j, false)
				w = l.waits
			} else {
				continue
			}
			logged, simulated = append(logged, a), append(simulated, b)
		}
		want := compareOf(slices.Clone(logged), slices.Clone(simulated))
		fits := true
		for i := range logged {
			fits = fits && logged[i] == int64(int32(logged[i])) && simulated[i] == int64(int32(simulated[i]))
		}
		if w.wide == fits {
			rt.Fatalf("wide %v, every wait fits in 32 bits %v", w.wide, fits)
		}
		got := w.compare()
		if (got == nil) != (want == nil) || got != nil && *got != *want {
			rt.Fatalf("32 then 64 bits: %+v\n64 bits: %+v", got, want)
		}
	})
}
