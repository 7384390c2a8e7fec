package sched

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

// TestSummaryLogRoundTrip: the summary log's hand-inlined varint decoder
// (logReader.next, and read in batches as summary decodes) gives back
// every field flush wrote, over the whole int64 range and across blocks:
// the traces and TestSummaryOnlyRapid mostly write one- and two-byte
// values, this reaches the 10-byte ones.
func TestSummaryLogRoundTrip(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		// Extreme values half of the time, small ones the rest.
		val := func(label string) int64 {
			if rapid.Bool().Draw(rt, label+"-far") {
				return rapid.OneOf(rapid.Just(int64(math.MinInt64)), rapid.Just(int64(math.MaxInt64)),
					rapid.Int64(), rapid.Int64Range(-1<<40, 1<<40)).Draw(rt, label)
			}
			return rapid.Int64Range(-300, 300).Draw(rt, label)
		}
		n := rapid.IntRange(1, 4000).Draw(rt, "jobs")
		f := newFoldSummary(10)
		var want []endedJob
		end := val("first end")
		for i := range n {
			if rapid.IntRange(0, 3).Draw(rt, "same end") > 0 {
				end += rapid.Int64Range(0, 1<<20).Draw(rt, "step")
			}
			e := endedJob{k: i, end: end, start: end - rapid.Int64Range(0, 1<<62).Draw(rt, "span"), wait: val("wait"),
				run: val("run"), size: val("size"), acc: rapid.OneOf(rapid.Float64(), rapid.Just(math.NaN())).Draw(rt, "acc"),
				corrections: rapid.IntRange(0, math.MaxInt32).Draw(rt, "corrections"), backfilled: rapid.Bool().Draw(rt, "bf")}
			e.firstRes = -1
			if rapid.Bool().Draw(rt, "reserved") {
				e.firstRes = rapid.Int64Range(0, math.MaxInt64).Draw(rt, "firstRes")
			}
			if e.end < 0 || e.end > math.MaxInt64-1<<20 {
				end, e.end, e.start = 0, 0, 0
			}
			if e.start < e.end-1<<62 || e.start > e.end { // end − span wrapped: keep the spans representable
				e.start = e.end
			}
			if d := e.firstRes - e.start; e.firstRes >= 0 && (d > 1<<62 || d < -1<<62) {
				e.firstRes = -1
			}
			want = append(want, e)
			f.open = append(f.open, e)
			if i == n-1 || rapid.Bool().Draw(rt, "flush") {
				f.flush()
			}
		}
		checked := len(want)
		for i := 1; i < len(want); i++ {
			if want[i].end < want[i-1].end {
				checked = i // (the generator reset the clock: entries before are checked)
				break
			}
		}
		same := func(i int, got, w endedJob) {
			got.k = w.k
			// acc by its bits (flush writes them): a NaN equals nothing,
			// and must not excuse the other fields
			ga, wa := got.acc, w.acc
			got.acc, w.acc = 0, 0
			if got != w || math.Float64bits(ga) != math.Float64bits(wa) {
				rt.Fatalf("entry %d: decoded %+v (acc %v), wrote %+v (acc %v)", i, got, ga, w, wa)
			}
		}
		r := logReader{blocks: f.log}
		// one entry decoded into again and again, as the warm-up does:
		// next sets every field but k (here junk from the start)
		got := endedJob{-1, -1, -1, -1, -1, -1, -1, -1, -1, true}
		for i, w := range want[:checked] {
			r.next(&got)
			if got.k != -1 {
				rt.Fatalf("entry %d: next wrote k %d", i, got.k)
			}
			same(i, got, w)
		}
		// in batches, as summary reads the log (entries of a batch may
		// lie in two blocks)
		r = logReader{blocks: f.log}
		batch := make([]endedJob, rapid.IntRange(1, 2*logBatch).Draw(rt, "batch"))
		for i := 0; i < checked; {
			es := batch[:min(len(batch), checked-i)]
			r.read(es)
			for j := range es {
				same(i+j, es[j], want[i+j])
			}
			i += len(es)
		}
	})
}
