package sched

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestConservativeNodesInPlaceRapid checks, at every search of
// conservative backfilling on nodes, that the segments kept in place
// (segApply, on each reservation held or dropped) are, from now on, what
// rebuilding them from the node's events gives, and that the free cores
// summed over the nodes (coreSum) are the sum of each node's, clamped at
// 0: the passes that always rebuild (noMemo) hold and drop in place too,
// so TestConservativeNodesPlanRapid cannot see either go wrong.
func TestConservativeNodesInPlaceRapid(t *testing.T) {
	checked := 0
	rapid.Check(t, func(t *rapid.T) {
		nodes, jobs := drawDeepNodeCase(t)
		cfg := Config{Nodes: nodes, Scheduler: conservativeScheduler{}, KeepShares: true,
			KillAtEstimate: rapid.Bool().Draw(t, "kill")}
		if rapid.Bool().Draw(t, "best") {
			cfg.Placement = BestFit
		}
		runCancelled(t, cfg, jobs, nil, func(s *Sim) {
			s.cons = s.newConsNodes()
			s.cons.verify = func(s *Sim, idleCores int64) {
				if msg := s.cons.inPlaceWrong(s, idleCores); msg != "" {
					t.Fatalf("at %d: %s", s.now, msg)
				}
				checked++
			}
		})
	})
	if checked == 0 {
		t.Fatal("no search checked")
	}
}

// inPlaceWrong says how the segments kept in place, or c.sum, differ
// from what rebuilding gives ("" if they do not), and leaves the
// segments rebuilt.
func (c *consNodes) inPlaceWrong(s *Sim, idleCores int64) string {
	var fresh coreSum
	fresh.in = make([]bool, len(c.segs))
	for i := range c.segs {
		if !c.sum.in[i] {
			continue
		}
		if len(c.ev[i]) == 0 || c.stale[i] {
			return fmt.Sprintf("node %d counted without events or stale", i)
		}
		sg := &c.segs[i]
		kept := nodeSegs{t: slices.Clone(sg.t), v: slices.Clone(sg.v), nc: sg.nc}
		c.rebuild(s, i)
		for _, x := range append(slices.Clone(kept.t), sg.t...) {
			x = max(x, s.now)
			if a, b := kept.at(x), sg.at(x); !slices.Equal(a, b) {
				return fmt.Sprintf("node %d at %d: in place %v, rebuilt %v", i, x, a, b)
			}
		}
		fresh.count(sg, 1)
	}
	level := func(a *coreSum, x int64) int64 {
		v := idleCores
		for k := range a.t {
			if a.t[k] <= x {
				v += a.d[k]
			}
		}
		return v
	}
	for _, x := range append(slices.Clone(c.sum.t), fresh.t...) {
		x = max(x, s.now)
		if a, b := level(&c.sum, x), level(&fresh, x); a != b {
			return fmt.Sprintf("free cores summed at %d: kept %d, from the segments %d", x, a, b)
		}
	}
	return ""
}

// at is the segment's values at time x (x at or after the first).
func (sg *nodeSegs) at(x int64) []int64 {
	k, found := slices.BinarySearch(sg.t, x)
	if !found {
		k--
	}
	return sg.v[k*sg.nc : (k+1)*sg.nc]
}
