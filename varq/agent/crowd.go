package agent

import (
	"fmt"
	"sort"

	"github.com/batchq/batchq/varq"
)

// crowdMode is Config.Crowd, parsed: whether an Agent plans each request
// as if its own outstanding requests for the same start time were part of
// it, an extension beyond the thesis, whose method (crowdOff) stays the
// default.
//
// Why: requests that must all be running at the same instant D compete for
// the same nodes at the same moment, which is like one job of their
// combined size. A wait-history forecaster (QBETS) cannot see that
// self-inflicted crowd coming, but the service that holds the requests
// knows it. With a crowd mode the agent asks its forecaster about a job of
// the request's own nodes plus the crowd's; as the Replanner re-plans
// while it waits, the crowd is re-read as it changes.
type crowdMode int

const (
	// crowdOff asks about the request's own size (the thesis).
	crowdOff crowdMode = iota
	// crowdQueued adds the nodes of the agent's other requests for the
	// same start time that are submitted but not yet started: they sit in
	// the queue and want nodes at the same moment. Started ones already
	// hold their nodes and no longer compete for a start.
	crowdQueued
	// crowdPlanned also adds the accepted requests for the same start time
	// that are not yet submitted but whose current plan submits no later
	// than the candidate submission: by then they will be queued ahead of
	// it. Those planned to submit later join the queue behind it, so they
	// are left out (under FCFS order they wait for it, not it for them).
	crowdPlanned
	// crowdAccepted adds every accepted request for the same start time
	// not yet submitted, whenever it plans to submit: the upper bound on
	// the crowd, kept to measure what crowdPlanned's ordering argument is
	// worth.
	crowdAccepted
)

func (m crowdMode) String() string {
	switch m {
	case crowdOff:
		return "off"
	case crowdQueued:
		return "queued"
	case crowdPlanned:
		return "planned"
	case crowdAccepted:
		return "accepted"
	}
	return fmt.Sprintf("crowdMode(%d)", int(m))
}

// parseCrowd reads Config.Crowd: its String form, or "" for crowdOff.
func parseCrowd(s string) (crowdMode, error) {
	for _, c := range []crowdMode{crowdOff, crowdQueued, crowdPlanned, crowdAccepted} {
		if s == c.String() {
			return c, nil
		}
	}
	if s == "" {
		return crowdOff, nil
	}
	return 0, fmt.Errorf("agent: Config.Crowd %q, want off, queued, planned or accepted", s)
}

// crowd is the agent's ledger of its own outstanding requests, by start
// time: the nodes queued (submitted, not started) and the requests
// accepted but not yet submitted. A nil *crowd (crowdOff) records nothing.
type crowd struct {
	mode   crowdMode
	groups map[int64]*crowdGroup
}

// crowdGroup holds one start time's outstanding requests. The pending ones
// are kept sorted by their current planned submission time, with running
// sums of their nodes, so that the crowd a candidate submission meets is a
// binary search rather than a scan: a trajectory asks for it up to 1440
// times, and a busy period has up to about 180 pending requests. The agent
// re-keys a request whenever its Replanner moves its plan (replanned).
type crowdGroup struct {
	queued  int            // nodes submitted and not started
	pending []pendingEntry // accepted, not yet submitted, by planned submission
	sums    []int          // sums[i]: the nodes of pending[:i+1]
}

// pendingEntry is one accepted request not yet submitted, under the
// planned submission time it was last filed with (its Replanner's current
// plan: plans change only inside Decide, and the agent re-files after it).
type pendingEntry struct {
	submit int64
	s      *simRequest
}

func newCrowd(mode crowdMode) *crowd {
	return &crowd{mode: mode, groups: map[int64]*crowdGroup{}}
}

func (c *crowd) group(start int64) *crowdGroup {
	g := c.groups[start]
	if g == nil {
		g = &crowdGroup{}
		c.groups[start] = g
	}
	return g
}

// tidy forgets an empty group, so the ledger holds only live start times.
func (c *crowd) tidy(start int64) {
	if g := c.groups[start]; g != nil && g.queued == 0 && len(g.pending) == 0 {
		delete(c.groups, start)
	}
}

// upTo is the number of pending entries planned to submit at or before t.
func (g *crowdGroup) upTo(t int64) int {
	return sort.Search(len(g.pending), func(i int) bool { return g.pending[i].submit > t })
}

// sumTo is the nodes of the first k pending entries.
func (g *crowdGroup) sumTo(k int) int {
	if k == 0 {
		return 0
	}
	return g.sums[k-1]
}

// insert files s under submit, after any entries with the same time.
func (g *crowdGroup) insert(s *simRequest, submit int64) {
	i := g.upTo(submit)
	g.pending = append(g.pending, pendingEntry{})
	copy(g.pending[i+1:], g.pending[i:])
	g.pending[i] = pendingEntry{submit: submit, s: s}
	g.sums = append(g.sums, 0)
	g.resum(i)
	s.filed, s.pending = submit, true
}

// remove takes s out of the pending entries, if it is there.
func (g *crowdGroup) remove(s *simRequest) {
	if !s.pending {
		return
	}
	for i := g.upTo(s.filed - 1); i < len(g.pending) && g.pending[i].submit == s.filed; i++ {
		if g.pending[i].s == s {
			g.pending = append(g.pending[:i], g.pending[i+1:]...)
			g.sums = g.sums[:len(g.pending)]
			g.resum(i)
			s.pending = false
			return
		}
	}
}

// resum recomputes the running sums from entry i on.
func (g *crowdGroup) resum(i int) {
	for ; i < len(g.pending); i++ {
		g.sums[i] = g.sumTo(i) + g.pending[i].s.req.Nodes
	}
}

// accepted records s as accepted and not yet submitted, under its current
// plan.
func (c *crowd) accepted(s *simRequest) {
	if c == nil {
		return
	}
	c.group(s.req.Start).insert(s, s.planned)
}

// replanned re-files a pending s after its Replanner decided again: its
// planned submission may have moved.
func (c *crowd) replanned(s *simRequest) {
	if c == nil || !s.pending || s.filed == s.planned {
		return
	}
	g := c.groups[s.req.Start]
	g.remove(s)
	g.insert(s, s.planned)
}

// unpend removes s from the accepted-not-submitted list (it was submitted
// or dropped).
func (c *crowd) unpend(s *simRequest) {
	if c == nil {
		return
	}
	g := c.groups[s.req.Start]
	if g == nil {
		return
	}
	g.remove(s)
	c.tidy(s.req.Start)
}

// queue and dequeue move s's nodes in and out of the queued count.
func (c *crowd) queue(s *simRequest) {
	if c != nil {
		c.group(s.req.Start).queued += s.req.Nodes
	}
}

func (c *crowd) dequeue(s *simRequest) {
	if c == nil {
		return
	}
	if g := c.groups[s.req.Start]; g != nil {
		g.queued -= s.req.Nodes
		c.tidy(s.req.Start)
	}
}

// nodes is the crowd self meets if it is submitted at time submit: the
// queued nodes for its start time and, in crowdPlanned, the other pending
// requests planned to submit at or before submit (in crowdAccepted, all of
// them). It costs a binary search (crowdPlanned) or nothing.
func (c *crowd) nodes(self *simRequest, submit int64) int {
	g := c.groups[self.req.Start]
	if g == nil {
		return 0
	}
	n := g.queued
	switch c.mode {
	case crowdPlanned:
		n += g.sumTo(g.upTo(submit))
		if self.pending && self.filed <= submit {
			n -= self.req.Nodes
		}
	case crowdAccepted:
		n += g.sumTo(len(g.pending))
		if self.pending {
			n -= self.req.Nodes
		}
	}
	return n
}

// crowdForecaster is the forecaster one request plans with under a crowd
// mode: it asks the agent's forecaster about a job of the request's nodes
// plus the crowd it would meet at the candidate submission D − within.
type crowdForecaster struct {
	f    varq.Forecaster
	c    *crowd
	self *simRequest
}

func (cf *crowdForecaster) ProbWithin(nodes int, walltime, within int64) (float64, bool) {
	return cf.f.ProbWithin(nodes+cf.c.nodes(cf.self, cf.self.req.Start-within), walltime, within)
}
