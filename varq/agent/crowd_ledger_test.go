package agent

import (
	"slices"
	"testing"

	"github.com/batchq/batchq/varq"
	"pgregory.net/rapid"
)

// crowdScan is the straightforward reading of crowd.nodes, kept as the
// oracle of the sorted ledger: the queued nodes plus, in crowdPlanned, a
// scan of the other pending requests' live plans (in crowdAccepted, all of
// them).
func crowdScan(mode crowdMode, queued int, pending []*simRequest, self *simRequest, submit int64) int {
	n := queued
	if mode == crowdPlanned || mode == crowdAccepted {
		for _, p := range pending {
			if p != self && (mode == crowdAccepted || p.planned <= submit) {
				n += p.req.Nodes
			}
		}
	}
	return n
}

// The sorted ledger answers exactly what the scan does, whatever sequence
// of acceptances, re-plans (ties included), submissions, starts and drops
// it went through, for any request asking (pending, not yet accepted,
// submitted, or of another start time) and any candidate submission.
func TestCrowdLedgerMatchesScan(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		mode := rapid.SampledFrom([]crowdMode{crowdQueued, crowdPlanned, crowdAccepted}).Draw(t, "mode")
		c := newCrowd(mode)
		starts := []int64{21600, 43200, 64800}
		var reqs []*simRequest
		pending := map[int64][]*simRequest{}
		queued := map[int64]int{}
		state := map[*simRequest]int{} // 0 new, 1 pending, 2 queued, 3 done
		plan := func(s *simRequest, at int64) { s.planned = at }
		// Plans on a coarse grid, so that ties are common.
		drawSubmit := func(label string) int64 { return 30 * rapid.Int64Range(0, 20).Draw(t, label) }
		pick := func(want int) *simRequest {
			var in []*simRequest
			for _, s := range reqs {
				if state[s] == want {
					in = append(in, s)
				}
			}
			if len(in) == 0 {
				return nil
			}
			return rapid.SampledFrom(in).Draw(t, "req")
		}
		for range rapid.IntRange(1, 120).Draw(t, "ops") {
			switch rapid.IntRange(0, 5).Draw(t, "op") {
			case 0: // a request arrives and is accepted
				s := &simRequest{req: varq.Request{Nodes: rapid.IntRange(1, 64).Draw(t, "nodes"), Walltime: 60,
					Start: rapid.SampledFrom(starts).Draw(t, "start")}}
				plan(s, drawSubmit("plan"))
				reqs = append(reqs, s)
				if rapid.Bool().Draw(t, "accept") { // otherwise refused, never filed
					c.accepted(s)
					pending[s.req.Start] = append(pending[s.req.Start], s)
					state[s] = 1
				}
			case 1, 2: // a pending request re-plans (maybe to the same time)
				if s := pick(1); s != nil {
					plan(s, drawSubmit("replan"))
					c.replanned(s)
				}
			case 3: // a pending request is submitted, or dropped
				if s := pick(1); s != nil {
					c.unpend(s)
					pending[s.req.Start] = slices.DeleteFunc(pending[s.req.Start], func(p *simRequest) bool { return p == s })
					state[s] = 3
					if rapid.Bool().Draw(t, "submitted") {
						c.queue(s)
						queued[s.req.Start] += s.req.Nodes
						state[s] = 2
					}
				}
			case 4: // a queued request starts (or is cancelled)
				if s := pick(2); s != nil {
					c.dequeue(s)
					queued[s.req.Start] -= s.req.Nodes
					state[s] = 3
				}
			case 5: // someone asks
				self := &simRequest{req: varq.Request{Nodes: 3, Start: rapid.SampledFrom(starts).Draw(t, "askStart")}}
				if len(reqs) > 0 && rapid.Bool().Draw(t, "known") {
					self = rapid.SampledFrom(reqs).Draw(t, "self")
				}
				submit := rapid.Int64Range(-30, 630).Draw(t, "submit")
				want := crowdScan(mode, queued[self.req.Start], pending[self.req.Start], self, submit)
				if got := c.nodes(self, submit); got != want {
					t.Fatalf("%v: nodes(%+v, %d) = %d, scan %d", mode, self.req, submit, got, want)
				}
			}
			for _, d := range starts {
				live := queued[d] != 0 || len(pending[d]) != 0
				if _, ok := c.groups[d]; ok != live {
					t.Fatalf("group %d kept %v, live %v", d, ok, live)
				}
			}
		}
	})
}

// crowdChecker is a forecaster that, at every question a crowd-aware
// agent asks, checks the agent's whole ledger against the scan: every
// pending request is filed under its Replanner's current plan, and for
// every pending request (and a newcomer) of every start time the ledger's
// crowd at the candidate submission equals the scan's.
type crowdChecker struct {
	sizedForecaster
	a      *Agent
	t      *rapid.T
	checks int
}

func (f *crowdChecker) ProbWithin(nodes int, w, within int64) (float64, bool) {
	c := f.a.crwd
	for d, g := range c.groups {
		var pend []*simRequest
		for i, e := range g.pending {
			if e.submit != e.s.planned || !e.s.pending || (i > 0 && g.pending[i-1].submit > e.submit) {
				f.t.Fatalf("start %d: entry %d filed at %d, plan %d, pending %v", d, i, e.submit, e.s.planned, e.s.pending)
			}
			pend = append(pend, e.s)
		}
		asks := append(slices.Clone(pend), &simRequest{req: varq.Request{Nodes: 1, Start: d}})
		for _, self := range asks {
			for _, s := range []int64{d - within, d - within - 30, d - within + 30} {
				if got, want := c.nodes(self, s), crowdScan(c.mode, g.queued, pend, self, s); got != want {
					f.t.Fatalf("start %d, candidate %d: ledger %d, scan %d", d, s, got, want)
				}
				f.checks++
			}
		}
	}
	return f.sizedForecaster.ProbWithin(nodes, w, within)
}

// In a running agent the ledger agrees with the scan at every forecast,
// whatever the forecaster, the queue, the re-planning and the crowd mode.
func TestCrowdLedgerMatchesScanInSimulation(t *testing.T) {
	total := 0
	rapid.Check(t, func(t *rapid.T) {
		var f *crowdChecker
		runRandomCrowdAgent(t, func(sf sizedForecaster) varq.Forecaster {
			f = &crowdChecker{sizedForecaster: sf, t: t}
			return f
		}, func(a *Agent) { f.a = a })
		total += f.checks
	})
	if total == 0 {
		t.Error("no forecast met a crowd")
	}
}
