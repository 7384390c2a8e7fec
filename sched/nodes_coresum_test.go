package sched

import (
	"testing"

	"pgregory.net/rapid"
)

// TestCoreSumAllowedRapid checks coreSum against the definition, time by
// time: nodes' segments counted and taken away at random, allowed's runs
// are exactly the starts in [from, h] whose window of d seconds has the
// sum (with base) at need or more throughout, and badMost bounds from
// above the window minimum at every start it ruled out before t.
func TestCoreSumAllowedRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes := rapid.IntRange(1, 5).Draw(t, "nodes")
		var a coreSum
		a.in = make([]bool, nodes)
		segs := make([]nodeSegs, nodes)
		now := rapid.Int64Range(0, 10).Draw(t, "now")
		draw := func(i int) {
			sg := &segs[i]
			sg.nc, sg.t, sg.v = 2, sg.t[:0], sg.v[:0]
			at := rapid.Int64Range(0, now).Draw(t, "t0")
			for k := range rapid.IntRange(1, 6).Draw(t, "segs") {
				if k > 0 {
					at += rapid.Int64Range(1, 15).Draw(t, "gap")
				}
				sg.t = append(sg.t, at)
				sg.v = append(sg.v, rapid.Int64Range(-2, 4).Draw(t, "cores"), 0)
			}
		}
		for range rapid.IntRange(1, 12).Draw(t, "changes") {
			i := rapid.IntRange(0, nodes-1).Draw(t, "node")
			if a.in[i] {
				a.count(&segs[i], -1)
				a.in[i] = false
			}
			if rapid.IntRange(0, 3).Draw(t, "drop") > 0 {
				draw(i)
				a.count(&segs[i], 1)
				a.in[i] = true
			}
		}
		level := func(u int64) int64 { // the definition: each counted node's segment at u
			var v int64
			for i := range segs {
				if !a.in[i] {
					continue
				}
				sg := &segs[i]
				k := 0
				for k+1 < len(sg.t) && sg.t[k+1] <= u {
					k++
				}
				v += max(sg.v[k*sg.nc], 0)
			}
			return v
		}
		base := rapid.Int64Range(0, 3).Draw(t, "base")
		need := rapid.Int64Range(0, 12).Draw(t, "need")
		d := rapid.Int64Range(1, 20).Draw(t, "d")
		from := now + rapid.Int64Range(0, 10).Draw(t, "from")
		h := from + rapid.Int64Range(-1, 40).Draw(t, "h")
		runs := a.allowed(now, base, need, d, from, h, nil)
		in := func(x int64) bool {
			for _, r := range runs {
				if r.lo <= x && x <= r.hi {
					return true
				}
			}
			return false
		}
		for k := 1; k < len(runs); k++ {
			if runs[k].lo <= runs[k-1].hi+1 {
				t.Fatalf("runs %v not apart and ascending", runs)
			}
		}
		for x := from - 5; x <= max(h, from)+5; x++ {
			w := int64(1 << 62)
			for u := x; u < x+d; u++ {
				w = min(w, base+level(u))
			}
			ok := x >= from && x <= h && w >= need
			if in(x) != ok {
				t.Fatalf("start %d: allowed %v, window minimum %d, need %d (runs %v)", x, in(x), w, need, runs)
			}
			if x >= from && x <= h && !ok {
				// every start ruled out before t = x+1 is bounded
				if b := a.badMost(d, x+1); b < w {
					t.Fatalf("start %d ruled out with window minimum %d, badMost %d", x, w, b)
				}
			}
		}
	})
}
