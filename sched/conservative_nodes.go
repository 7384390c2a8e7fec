package sched

import (
	"cmp"
	"maps"
	"math/bits"
	"slices"
)

// Conservative backfilling on a machine of nodes (Config.Nodes): the pass
// of the one-pool version (conservativeScheduler), with its free-processor
// Profile replaced by each node's free resources over time, and a
// reservation holding specific nodes and GPUs (Job.resAlloc).
//
// A node's availability over time is its free resources when the pass
// begins plus a list of events, each a share coming back (+) or being
// taken (−) at a time: a running job's shares come back at
// max(predicted end, now+1) (S3, as on one pool; at now for a job that
// ends now as predicted, Sim.endsNow), and a reservation's
// shares are taken at its start and come back max(p, 1) later. Between
// two event times a node's resources are constant: a segment.
//
// A job fits on a node from t for d seconds when one share of it fits the
// node's minimum, resource by resource (each GPU on its own), over the
// segments that meet [t, t+d): the same GPUs, cores and memory stay free
// the whole window. As t moves on, segments enter the window at T−d+1 and
// leave it at T' (T, T' their start times), so a node's gain (1 if a
// share fits, or the cores a spread job could use there) is a step
// function of t that one sweep with a monotone deque per resource gives in
// O(segments). The job's earliest start is then the first time the sum
// of the nodes' gains reaches its node count (or its cores, spread): a
// sort of the gains' steps. The placement policy then chooses the nodes,
// and on each its GPUs, among those whose minimum over the chosen window
// holds a share (machine.placeIn on that minimum), so the old reservation
// — still free, since every job placed after it avoided it — is always a
// candidate and no job moves later unless a running job outlived its
// prediction.
//
// On one node this is the one-pool schedule, job by job
// (TestConservativeNodesOneNodeEqualsPool). On several it cannot be: the
// pool's Profile counts processors, so a reservation there may use some
// processors in the first part of its window and others in the rest,
// while on nodes it holds the same cores throughout, on the nodes the
// placement chose when it was made (TestConservativeNodesPinned, and
// TestConservativeNodesOneNodeEqualsPool's doc for the first job of KTH
// that differs).

// consNodes is conservativeNodesPass's scratch, kept between passes so
// that a pass allocates nothing once warm.
type consNodes struct {
	base avail // the machine's free resources when the pass began
	cur  avail // base, with the events of the node being scanned applied
	// win is, on the nodes a job's scan touched, the minimum over its
	// window; base elsewhere: what the placement sees.
	win    avail
	ev     [][]nodeEv // per node, its events by time, comebacks first
	listed []bool     // node is in used
	used   []int32    // the nodes whose events may be non-empty
	keys   [][]string // per node kind, its named resources' names, sorted

	// segs caches each node's segments, rebuilt when its events change;
	// stale marks those to rebuild.
	segs  []nodeSegs
	stale []bool

	// One job's scan: the nodes it touched, the deques, the segments'
	// gains (scalar path), the steps of the nodes' gains.
	touched    []int32
	sum        coreSum // the free cores summed over the nodes with segments
	runs       []span  // the runs of starts the sum leaves (earliest)
	dq         []int32
	head, tail []int32
	vals       []int64
	mins       []int64 // windowOn's
	gev        []gainStep
	start      []*Job

	ending bool // a running job ends now as predicted (endsNow)
	// short is, after earliest, what the job lacked at most at the
	// starts before the one it found (the sum of the nodes' gains short
	// of its nodes or cores): its deficit (consPlan); got is what
	// reaches found the gains may have given it since
	short, got int64
	// starts is, after reaches, the starts from now to the job's
	// reservation whose window meets a gain noted on some node: only
	// there can it have come to fit (consPlan)
	starts span
	// gs is, on each node in gained, the span over which an early end
	// since the plan, or a move of this pass, gave it more than when the
	// jobs the plan settled were placed (consPlan)
	gs     []span
	gained []int32
	// ls is, on each node in lost, the span over which a running job
	// that outlived its prediction, or a reservation whose time passed,
	// takes more than F (S3, consPlan's Losses); overdue is those
	// reservations
	ls      []span
	lost    []int32
	overdue []*Job
	// asp is, on each node in an, the span of the last pass's slots
	// given back on it after the job being checked (reaches)
	asp []span
	an  []int32
	old []share // the reservation of the job being placed, as it was
	// held[i] == heldStamp marks node i as one of heldFor's reservation
	// (heldMarks), heldLast its last node; heldDone is the stamp they
	// were made at
	held                []int64
	heldStamp, heldDone int64
	heldFor             *Job
	heldLast            int32
	plan                consPlan
	// noMemo makes every pass rebuild and place every job (tests only:
	// the schedule it gives is the one the plan's shortcut must give)
	noMemo bool
	// oldPaths makes drop test every event of the node, holds and
	// lastNode walk the job's shares, windowOn take the general path and
	// reachesOn scan to the end (tests only: the paths before the
	// shortcuts of dropOn, heldMarks, windowOn and scan's stop, which
	// must give the same schedule)
	oldPaths bool
	// verify, when set (tests only), is called by each search once the
	// nodes' segments are up to date, with the free cores of the nodes
	// without events
	verify func(s *Sim, idleCores int64)
	// pinCheck, when set (tests only), is called at each job placed
	// again at its reservation without a search (best fit's pinned
	// path), with the deficit it keeps, after the nodes' segments are
	// brought up to date
	pinCheck func(s *Sim, j *Job, d, short int64)
	// noSum makes earliest sweep every start, without the free cores
	// summed (tests only: its deficit, c.short, is then exact)
	noSum bool
	// sumCheck, when set (tests only), is called at the end of each
	// search that the free cores summed narrowed, with its start
	sumCheck func(s *Sim, j *Job, d, from, h, found int64)
	// boundCheck, when set (tests only), is called at each reaches
	// that reachesBound decided, with its answer and the gains it
	// counted, and the exact scans' (reachesOn's)
	boundCheck func(s *Sim, j *Job, r bool, got int64, exact bool, exactGot int64)
	kept       int // the jobs kept without a scan (for the tests)
	// cuts is the drops dropOn made at the two instants, stops the
	// scans reachesOn stopped early (for the tests)
	cuts, stops int
	placed      int // the jobs placed by a scan (for the tests)
	// rebuilt is the passes that rebuilt the availability and placed
	// every job (for the tests)
	rebuilt int
	late    int // the passes whose plan stood after S3 (consPlan's Losses; for the tests)
}

// consPlan is what the last conservativeNodesPass left, so that the next
// one can keep its availability (the events) and the jobs it settled.
//
// The plan stands when every waiting job the full pass would see holds
// what the full pass would give it, without a scan. The argument, for
// first fit (the built-in default, Config.Placement nil):
//
// Stability. A job k placed at t on shares A, in availability S, by the
// search (earliest) and first fit over the window's minimum W, is placed
// there again in any S' ≤ S (resource by resource, node by node, at every
// time from now on) that still holds A over [t, t+d): no start before t
// fits in S' (less is free), t fits (A is free), and first fit over W' ≤
// W, W' ≥ A on A's nodes, takes the same nodes and GPUs (the nodes and
// GPUs before A's in their order did not fit in W, so not in W'; those of
// A do; a spread job's cores on a node are min(left, usable), usable the
// same on A's nodes, where W ≥ W' ≥ A and first fit took all of W's
// usable cores but on the last). A user's Placement is not stable: with
// it every pass is rebuilt, as before.
//
// Best fit. Best fit is not stable either (less free elsewhere can rank
// another node first), but it ranks only the nodes that can hold a share
// over the window at t, by what W leaves there, and takes them in that
// order: a change on a node whose window at t cannot hold a share of k
// (before or after it) leaves its choice as it was. So under best fit the
// plan stands as under first fit, with the gains noted as below (a gain
// meeting the window at t on any node that can now hold a share, not
// only on one before k's last, re-places k), and the losses noted too:
// the new slot of every job a pass places (an arrival's, a move's) is a
// loss to the jobs after it in that pass (c.lost) and, in the next pass,
// to the jobs before it (tk, as gave is for gains); a job whose window at
// t such a loss meets, on one of its nodes or on a node that can hold a
// share of it there, is placed again from now (tookSlots,
// lossReaches). Losses open no start. Best fit had rebuilt every pass:
// lublin_256 on 64 nodes of 4 cores over 400 s (TestConservativeNodesPlanBestCounts
// counts the passes rebuilt).
//
// Settled. Each job k a pass reserved is, in the pass's final
// availability F less k, where that pass placed it, but for the slots
// that moves after k in the pass gave back (after(k): those slots, each
// on the nodes of the shares it held). F − k is the availability k was placed in (or last kept in),
// less the jobs placed after k that held nothing before (arrivals, jobs
// whose reservation was dropped) and the new slots of the jobs that moved
// after k, each of which took only a fit in an availability where k held
// A, so F − k still holds A (every placement after k left every point of
// A's window and resources ≥ 0); plus the slots given back after k. A
// gain over [lo, hi) can open a start before t or change first fit's
// choice at t only if lo < t+d.
//
// Standing. The next pass's availability, rebuilt, is F from now on when
// nothing happened but arrivals and the ends of running jobs at the times
// F gives their resources back (no start, no other end, no correction,
// cancellation, re-prediction or Reserve: s.epoch has grown by the count
// of running jobs F frees by now, ends, and s.qepoch not at all), no
// running job is still running at or past its predicted end (S3 and
// endsNow move its resources with now), and no reservation lies before
// now. Then the free resources now are F's (the base and the events by
// now), the ended jobs' events by now are dropped unread (their shares
// may be reused) and the others are the rebuild's. An early end (a
// running job F frees after now has ended; it counts in s.epoch too)
// makes it F with more on that job's nodes from now to the time F frees
// them: its events are dropped unread, its nodes' free resources now
// taken as they are, and the gain noted on those nodes (gs).
//
// Losses. Two changes make the rebuild F with less on some nodes, and
// the plan stands through them (but on an idle machine, where rebuildAll
// places a passed reservation again): a running job still running at or
// past the time F frees it (S3) frees its resources at now+1, its events
// moved there, a loss over [now, now+1) on its nodes, which meets the
// window of no job kept (they start after now); a reservation whose time
// passed (a running job outlived its prediction) is held at now for its
// length, as rebuildAll holds it, a loss on its nodes after the end of
// its slot in F (ls, lost). A loss opens no start and leaves first fit's
// choice at t as it was (less is free: stability) unless it takes k's
// own shares: a kept job on whose reservation's nodes a loss meets its
// window, and where some resource is below 0 there (overdrawn), is
// placed again from now, as the full pass places it. A correction still
// makes the pass rebuild.
//
// Gains are noted node by node (gs): an early end's on its nodes from
// now to when F frees them, a move's (of this pass, or of the last one
// after k: after(k)) on the nodes of the slot it gave back, over that
// slot. Every other node has, at every time, what it had when k was
// placed or less.
//
// Deficit. When k was placed at t, the sum of the nodes' gains
// (earliest) fell short of its want at every start from then to t by at
// least short(k): want less the most that sum reached before t. A gain
// on node i adds to the sum at a start only if the start's window meets
// it, and at most what i gives k there now (its gain then was ≥ 0):
// most(i), the most over those starts before t (on k's own nodes, whose
// availability here holds k's shares, what the node gives k when idle).
// If the most of the gained nodes sum to less than short(k), no start
// before t fits k, and short(k) less that sum bounds what it lacks there
// from now on. At t first fit takes each node's minimum over [t, t+d):
// a gain that meets that window may change its choice on one of k's
// nodes, or on a node before k's last one (first fit stops there) that
// can now hold a share; on the others the minimum is as it was or less
// and holds no share, or first fit does not reach them (stability).
//
// A pass from a standing plan re-places the jobs due now (which start,
// where they stand, as the full pass's would), the arrivals, and the
// jobs whose deficit the gains may fill or whose choice at t they may
// change (reaches). Every other job it keeps, without a scan, with its
// deficit less the gains' most. A job it re-places searches only the
// starts whose window meets a gain, before t (elsewhere it lacks at
// least short(k) > 0), and takes t if none fits (A is still free there).
//
// TestConservativeNodesPlanRapid checks the schedule against passes that
// always rebuild (noMemo), on random machines, demands and events.
type consPlan struct {
	ok            bool   // the pass placed every job, and uses first or best fit
	epoch, qepoch uint64 // s.epoch and s.qepoch after it (with its own starts)
	// jobs is the jobs it reserved, in arrival order, each with the
	// index in gave of the first slot given back after it; gave is the
	// slots its moves gave back, in order, and suf[i] their span from
	// the i-th on (suf[len(gave)] = noSpan). next and nextGave are the
	// current pass's.
	jobs, next     []planJob
	gave, nextGave []span
	suf            []span
	// gaveAt[i] ends the nodes of the i-th slot of gave (the shares it
	// held) in gaveNodes; nextAt and nextNodes are the current pass's
	gaveAt, nextAt       []int32
	gaveNodes, nextNodes []int32
	// al[i] is, for node i in alNodes, each slot of gave on it (its
	// index e) with the span of the slots of gave on i from e on, by e
	// descending; ap[i] the entry the next job reads (the jobs read
	// them by after ascending)
	al      [][]planAfter
	ap      []int
	alNodes []int32
	// tk is, under best fit, the slots its jobs took anew (losses to
	// the jobs before them, for the next pass), as gave and al
	tk     tookSlots
	minRes int64 // its earliest reservation
	// ends is when F gives each running job's resources back
	// (freeFrom), sorted, and the job (its seq: its Job may be reused
	// once it ends)
	ends  []planEnd
	nodes []int32
}

type planAfter struct {
	e  int
	sp span
}

type planJob struct {
	seq   int64
	after int
	took  int // the index in tk.slots of the first slot taken after it
	// short bounds below what the job lacked at every start from now to
	// its reservation (consPlan's Deficit)
	short int64
}

type planEnd struct {
	t, seq   int64
	j        *Job
	from, to int32 // its nodes, in consPlan.nodes
}

// nodeSegs is a node's segments: start times, and every resource of the
// node in each (cores, memory, each GPU, each named resource in the
// kind's sorted order: nc values a segment).
type nodeSegs struct {
	t  []int64
	v  []int64
	nc int
}

// nodeEv is a share of a job coming back (sign 1) or being taken (−1) at t:
// jb.resAlloc[k] when res, jb.alloc[k] otherwise.
type nodeEv struct {
	t    int64
	jb   *Job
	k    int32
	sign int8
	res  bool
}

type gainStep struct{ t, d int64 }

// conservativeNodesPass is conservativeScheduler's pass on a machine of
// nodes: in arrival order, each waiting job gives up its reservation,
// takes the earliest window where it fits for its prediction on nodes the
// placement policy chooses, and starts if that window begins now (on the
// free nodes, which hold it by construction), else reserves it. The
// nodes' availability is rebuilt from the running jobs and every waiting
// job's reservation, or, when the last pass's plan stands (consPlan), kept
// from it, and the jobs the plan settles are kept without a scan.
//
// Cost per pass, rebuilt: O(N + E) to rebuild (N nodes, E events: a share
// of a running job, two per share of a reservation). Per waiting job
// placed: O(N) for the nodes without events, O(E_j·c) to rebuild the
// segments of the nodes whose events changed since the last job (E_j
// their events: the nodes of the last job's old and new shares), then
// O(S·c + S log S) to find its window, S the segments it scans (every
// node's, up to its old reservation plus its prediction, where the search
// stops first: that slot is still free unless a prediction was outlived)
// and c the resources compared per segment (1 for a job without GPUs or
// named resources, else the node's: 2, its GPUs and named resources), the
// log S the sort of the gains' steps; plus the placement policy's own
// cost (machine.placeIn, O(N) per share for the built-ins) and O(E_n) per
// share to insert its events (E_n its node's). A pass whose plan stands
// costs O(N + R log R + P) (R running jobs, P their shares) and O(1) per
// job it keeps, plus, after early ends or moves, a scan of the gained
// nodes' segments from the gain to the job's start (reaches), and the
// above per job it places: the arrivals, the jobs due now (their scan
// from now) and those a gain may have moved (their scan only over the
// starts a gain may have opened). On one pool the same pass is O(q ·
// profile points). BenchmarkNodes* measure it against EASY on the same
// nodes (their comment has the figures).
func (s *Sim) conservativeNodesPass() {
	m := s.m
	c := s.cons
	if c == nil {
		c = s.newConsNodes()
		s.cons = c
	}
	e0, q0 := s.epoch, s.qepoch // (see consPlan's epoch)
	for _, i := range c.gained {
		c.gs[i] = noSpan
	}
	c.gained = c.gained[:0]
	for _, i := range c.lost {
		c.ls[i] = noSpan
	}
	c.lost = c.lost[:0]
	kept := c.planStands(s)
	if !kept {
		c.rebuilt++
		c.rebuildAll(s)
	}
	c.start = c.start[:0]
	p := &c.plan
	p.minRes = never
	p.next, p.nextGave = p.next[:0], p.nextGave[:0]
	p.nextAt, p.nextNodes = p.nextAt[:0], p.nextNodes[:0]
	p.tk.next, p.tk.nextAt, p.tk.nextNodes = p.tk.next[:0], p.tk.nextAt[:0], p.tk.nextNodes[:0]
	prev := p.jobs // the last pass's, to learn each job's after span
	refused := false
	blocked := false
	for v, j := range s.buf {
		if v&(haltEvery-1) == haltEvery-1 && s.halted() {
			return // a cancelled run's long pass stops here, half done
		}
		d := max(j.p, 1)
		held := j.res >= 0 && len(j.resAlloc) > 0
		// within: the job was settled at j.res, and a gain since may
		// have opened only the starts in c.starts, where it lacked at
		// least short
		within, short := false, int64(1)
		pinned := false // placed again at j.res without a search
		if kept && held && j.res > s.now {
			c.newCheck()
			// the slots the last pass gave back after j: none, or from
			// the a-th on
			a, ta := -1, -1
			for len(prev) > 0 && prev[0].seq < j.seq {
				prev = prev[1:]
			}
			if len(prev) > 0 && prev[0].seq == j.seq {
				ta = prev[0].took
				short = prev[0].short
				if p.suf[prev[0].after].lo < j.res+d {
					a = prev[0].after
				}
			}
			// a job whose reservation a loss overdraws is placed again
			// from now, as the full pass places it
			over := c.overdrawn(s, j, d)
			// best fit: a loss over its window on a node that can hold a
			// share of it there, or on its own, may change the choice
			// (consPlan's Best fit); ta < 0: not in the last plan
			if m.best && !over && (ta < 0 || c.lossReaches(s, j, d, ta)) {
				over = true
				// a loss opens no start, and its slot is still free: if
				// no gain reaches it either (it would be kept but for
				// the loss), it starts at j.res again, where best fit
				// chooses its nodes anew
				pinned = ta >= 0 && !c.reaches(s, j, d, a, short)
			}
			if !over && !c.reaches(s, j, d, a, short) {
				// settled (consPlan): where the full pass would keep it
				blocked = true
				p.minRes = min(p.minRes, j.res)
				p.next = append(p.next, planJob{j.seq, len(p.nextGave), len(p.tk.next), short - c.got})
				c.kept++
				continue
			}
			within = !over
		}
		c.placed++
		r0 := int64(-1) // the old reservation, in c.old
		if held {
			r0 = j.res
			c.old = append(c.old[:0], j.resAlloc...)
			c.drop(j)
		}
		// The old reservation is still free (every job placed after it
		// avoided it) unless a running job outlived its prediction: the
		// search looks no further first.
		t := never
		switch {
		case pinned:
			c.touch(s)
			t = j.res
			c.short = short - c.got
			if c.pinCheck != nil {
				c.pinCheck(s, j, d, c.short)
			}
		case within:
			// the earliest start among those the gains may have
			// opened, else its reservation, which still holds it
			t = c.earliest(s, j, d, c.starts.lo, c.starts.hi-1)
			c.short = min(c.short, short)
			if t == never {
				t = j.res
			}
		case held:
			t = c.earliest(s, j, d, s.now, j.res)
		}
		if t == never {
			t = c.earliest(s, j, d, s.now, never)
		}
		j.resAlloc = j.resAlloc[:0]
		if t == never { // cannot be: the idle machine holds every admitted job
			s.refused++
			refused, blocked = true, true
			c.moved(r0, d, -1, nil, m.best)
			continue
		}
		c.window(m, t, d)
		var ok bool
		if t == s.now {
			// The free nodes now, and the window's minimum, which is
			// below them: the job starts on nodes no reservation holds.
			as := [2]*avail{&m.free, &c.win}
			j.alloc, ok = m.placeIn(as[:], j, &j.nd, j.alloc[:0])
			c.clean(m, j.alloc)
			if ok {
				j.backfill = blocked
				c.start = append(c.start, j)
				c.hold(j, t, d, false)
				c.moved(r0, d, t, j.alloc, m.best)
				continue
			}
			if c.ending { // (clean gave the window's nodes the base back)
				c.window(m, t, d)
			}
		}
		// A job planned now that does not fit on the free nodes counts
		// on the nodes of a job that ends now as predicted: it waits,
		// reserved at now, for the pass after that job's termination.
		if t != s.now || c.ending {
			as := [1]*avail{&c.win}
			j.resAlloc, ok = m.placeIn(as[:], j, &j.nd, j.resAlloc[:0])
			c.clean(m, j.resAlloc)
			if ok {
				blocked = true
				s.reserve(j, t)
				c.hold(j, t, d, true)
				p.minRes = min(p.minRes, t)
				p.next = append(p.next, planJob{j.seq, len(p.nextGave), len(p.tk.next), c.short})
				c.moved(r0, d, t, j.resAlloc, m.best)
				// its own new slot is no loss to it, nor its old one,
				// given back, a gain (it was placed without either):
				// the slots taken and given back after it start past
				// them
				p.next[len(p.next)-1].took = len(p.tk.next)
				p.next[len(p.next)-1].after = len(p.nextGave)
				continue
			}
		}
		// Cannot be either: the sweep found the nodes. Counted, so that
		// the tests (Result.Refused) see it.
		s.refused++
		refused, blocked = true, true
		c.moved(r0, d, -1, nil, m.best)
	}
	p.ok = !refused && !c.noMemo && (m.place == firstFit || m.best)
	// suf[i]: the span of the slots given back from the i-th on
	p.jobs, p.next = p.next, p.jobs[:0]
	p.gave, p.nextGave = p.nextGave, p.gave[:0]
	p.gaveAt, p.nextAt = p.nextAt, p.gaveAt[:0]
	p.gaveNodes, p.nextNodes = p.nextNodes, p.gaveNodes[:0]
	p.afterNodes()
	p.tk.turn(len(m.kind))
	p.suf = slices.Grow(p.suf[:0], len(p.gave)+1)[:len(p.gave)+1]
	acc := noSpan
	p.suf[len(p.gave)] = acc
	for k := len(p.gave) - 1; k >= 0; k-- {
		acc = acc.join(p.gave[k])
		p.suf[k] = acc
	}
	e1 := s.epoch
	_, epoch := s.startBackfills(c.start, true)
	c.plan.epoch, c.plan.qepoch = e0+(epoch-e1), q0+(epoch-e1)
	c.planEnds(s)
}

// newConsNodes makes conservativeNodesPass's scratch for s's machine.
func (s *Sim) newConsNodes() *consNodes {
	m := s.m
	c := &consNodes{ev: make([][]nodeEv, len(m.kind)), listed: make([]bool, len(m.kind)), keys: make([][]string, len(m.kinds)),
		segs: make([]nodeSegs, len(m.kind)), stale: make([]bool, len(m.kind)), held: make([]int64, len(m.kind)), heldStamp: 1,
		gs: make([]span, len(m.kind)), asp: make([]span, len(m.kind)), ls: make([]span, len(m.kind))}
	for i := range c.gs {
		c.gs[i], c.asp[i], c.ls[i] = noSpan, noSpan, noSpan
	}
	c.plan.al, c.plan.ap = make([][]planAfter, len(m.kind)), make([]int, len(m.kind))
	c.sum.in = make([]bool, len(m.kind))
	for k := range m.kinds {
		c.keys[k] = slices.Sorted(maps.Keys(m.kinds[k].Named))
	}
	return c
}

// rebuildAll makes the nodes' availability from the running jobs and the
// waiting jobs' reservations, and s.buf the waiting jobs in arrival
// order.
func (c *consNodes) rebuildAll(s *Sim) {
	m := s.m
	for _, i := range c.used {
		c.ev[i] = c.ev[i][:0]
		c.listed[i] = false
	}
	c.used = c.used[:0]
	c.sum.reset()
	c.base.copyFrom(&m.free)
	c.cur.copyFrom(&m.free)
	c.win.copyFrom(&m.free)
	c.ending = false
	s.run.Ascend(func(r *Job) bool {
		t := s.freeFrom(r)
		c.ending = c.ending || t == s.now
		for k := range r.alloc {
			c.add(int(r.alloc[k].node), nodeEv{t: t, jb: r, k: int32(k), sign: 1})
		}
		return true
	})
	s.buf = s.buf[:0]
	idle := s.run.Len() == 0
	s.waitFCFS.Ascend(func(j *Job) bool {
		s.buf = append(s.buf, j)
		if j.res >= 0 && len(j.resAlloc) > 0 {
			// On an idle machine a reservation whose time has passed (S3)
			// is placed again below, in arrival order: held at now with
			// the others it could overdraw the nodes, so that no job
			// fits now and the machine stays idle with jobs waiting
			// (conservativePass says more; schedtest found it here too).
			if idle && j.res < s.now {
				j.res = -1
				j.resAlloc = j.resAlloc[:0]
				return true
			}
			j.res = max(j.res, s.now)
			c.hold(j, j.res, max(j.p, 1), true)
		}
		return true
	})
}

// planStands reports whether the last pass's plan stands (consPlan) and,
// if so, drops the events by now but the reservations', takes the free
// resources now as the base and makes s.buf the waiting jobs in arrival
// order; if not, it may have dropped events, and the pass rebuilds.
func (c *consNodes) planStands(s *Sim) bool {
	p := &c.plan
	if !p.ok || c.noMemo || s.qepoch != p.qepoch || s.ending != 0 || p.minRes < s.now && s.run.Len() == 0 {
		return false // (on an idle machine a passed reservation is placed again: rebuildAll)
	}
	// Each end since counts once in s.epoch (a correction of a job still
	// running must not stand for the end of one that did not run yet). A
	// job F frees after now that has ended (an early end) counts too, and
	// gives its nodes more than F from now to then. A job F frees by now
	// that still runs has outlived its prediction (S3): it frees its
	// resources at now+1 (over).
	n, early, over := 0, false, false
	for k := range p.ends {
		e := &p.ends[k]
		gone := e.j.seq != e.seq || e.j.state != running
		if e.t <= s.now && !gone {
			if s.endsNow(e.j) {
				return false
			}
			over = true
			continue
		}
		if gone {
			n++
			early = early || e.t > s.now
		}
	}
	if s.epoch-p.epoch != uint64(n) {
		return false
	}
	if r, ok := s.run.Min(); ok && r.predEnd() <= s.now && !over {
		return false // (cannot be: every running job is in ends)
	}
	m := s.m
	s.buf = s.buf[:0]
	c.overdue = c.overdue[:0]
	s.waitFCFS.Ascend(func(j *Job) bool {
		s.buf = append(s.buf, j)
		if j.res >= 0 && j.res < s.now && len(j.resAlloc) > 0 {
			// held at now from now on, as rebuildAll holds it: a loss
			// after the end of its slot in F
			d := max(j.p, 1)
			for k := range j.resAlloc {
				c.lose(j.resAlloc[k].node, span{max(s.now, j.res+d), s.now + d})
			}
			c.drop(j)
			j.res = s.now
			c.overdue = append(c.overdue, j)
		}
		return true
	})
	for k := 0; early && k < len(p.ends); k++ {
		e := &p.ends[k]
		if e.t <= s.now || e.j.seq == e.seq && e.j.state == running {
			continue
		}
		// Its events go unread (its shares may be reused; a reused Job
		// is an arrival since, without events), and its nodes' free
		// resources now hold its shares.
		for _, i32 := range p.nodes[e.from:e.to] {
			i := int(i32)
			c.ev[i] = slices.DeleteFunc(c.ev[i], func(v nodeEv) bool { return v.jb == e.j && !v.res })
			c.gain(i32, span{s.now, e.t})
			copyNode(m, &c.base, &m.free, i)
			copyNode(m, &c.cur, &m.free, i)
			copyNode(m, &c.win, &m.free, i)
			c.stale[i] = true
		}
	}
	for _, i32 := range c.used {
		i := int(i32)
		l := c.ev[i]
		if len(l) == 0 || l[0].t > s.now {
			continue
		}
		k := 0
		for k < len(l) && l[k].t <= s.now {
			k++
		}
		for _, e := range l[:k] {
			if e.res && e.t < s.now {
				return false // (cannot be: the overdue ones are dropped)
			}
		}
		c.ev[i] = slices.DeleteFunc(l[:k], func(e nodeEv) bool { return !e.res })
		c.ev[i] = append(c.ev[i], l[k:]...)
		copyNode(m, &c.base, &m.free, i)
		copyNode(m, &c.cur, &m.free, i)
		copyNode(m, &c.win, &m.free, i)
		c.stale[i] = true
	}
	for k := 0; over && k < len(p.ends); k++ {
		e := &p.ends[k]
		if e.t > s.now || e.j.seq != e.seq || e.j.state != running {
			continue
		}
		// its events by now went unread: it comes back at now+1, a
		// loss over [now, now+1) only, which the window of no job kept
		// meets (it starts after now)
		r, t := e.j, s.freeFrom(e.j)
		for k := range r.alloc {
			c.add(int(r.alloc[k].node), nodeEv{t: t, jb: r, k: int32(k), sign: 1})
		}
	}
	for _, j := range c.overdue {
		c.hold(j, s.now, max(j.p, 1), true)
	}
	if over || len(c.overdue) > 0 {
		c.late++
	}
	c.ending = false
	return true
}

// lose notes that node i has less over sp than F (consPlan's Losses).
func (c *consNodes) lose(i int32, sp span) {
	if sp.lo >= sp.hi {
		return
	}
	if c.ls[i] == noSpan {
		c.lost = append(c.lost, i)
	}
	c.ls[i] = c.ls[i].join(sp)
}

// overdrawn reports whether a loss since the plan (c.lost) may have left
// job j's reservation, at j.res for d, without its shares: on a node of
// it whose loss meets the window, some resource is below 0 there.
func (c *consNodes) overdrawn(s *Sim, j *Job, d int64) bool {
	if len(c.lost) == 0 {
		return false
	}
	r := j.res
	for k := range j.resAlloc {
		i := int(j.resAlloc[k].node)
		if g := c.ls[i]; g.lo >= r+d || g.hi <= r {
			continue
		}
		if c.stale[i] {
			c.rebuild(s, i)
		}
		sg := &c.segs[i]
		lo, _ := slices.BinarySearch(sg.t, r+1)
		for x := max(lo-1, 0); x < len(sg.t) && sg.t[x] < r+d; x++ {
			for _, v := range sg.v[x*sg.nc : (x+1)*sg.nc] {
				if v < 0 {
					return true
				}
			}
		}
	}
	return false
}

// reaches reports whether the gains noted since job j, reserved at j.res
// for d, was placed (c.gained, with the slots the last pass gave back
// after it, from the a-th on, a ≥ 0) may fill its deficit short or
// change first fit's choice at j.res (consPlan). If not, the full pass
// keeps j, and c.got is what the gains may have given it at the starts
// before j.res. It sets c.starts, the starts whose window meets a gain.
func (c *consNodes) reaches(s *Sim, j *Job, d int64, a int, short int64) bool {
	p := &c.plan
	c.an, c.got = c.an[:0], 0
	if a >= 0 {
		for _, i := range p.alNodes {
			l, k := p.al[i], p.ap[i]
			for k >= 0 && l[k].e < a {
				k--
			}
			p.ap[i] = k
			if k >= 0 && l[k].sp.lo < j.res+d {
				c.asp[i] = l[k].sp
				c.an = append(c.an, i)
			}
		}
	}
	// the starts whose window meets a gain, before j.res
	c.starts = noSpan
	for _, l := range [2][]int32{c.gained, c.an} {
		for _, i := range l {
			g := c.gs[i].join(c.asp[i])
			if st := (span{max(s.now, g.lo-d+1), min(g.hi, j.res)}); st.lo < st.hi {
				c.starts = c.starts.join(st)
			}
		}
	}
	r, known := c.reachesBound(s, j, d, short)
	if !known {
		r = c.reachesOn(s, j, d, c.gained, true, short) || c.reachesOn(s, j, d, c.an, false, short)
	} else if c.boundCheck != nil {
		got := c.got
		c.got = 0
		exact := c.reachesOn(s, j, d, c.gained, true, short) || c.reachesOn(s, j, d, c.an, false, short)
		c.boundCheck(s, j, r, got, exact, c.got)
		c.got = got
	}
	for _, i := range c.an {
		c.asp[i] = noSpan
	}
	return r
}

// gainRead is, for reachesOn and reachesBound, the gain noted on node i
// that job j (reserved at r for d) reads: ok false when there is none to
// read (a node of the last pass's slots that is gained too is read with
// the gained ones), or it begins after j's window. atR: it meets the
// window at r; held: j's reservation has a share on i.
func (c *consNodes) gainRead(j *Job, d int64, i int32, gained bool) (g span, atR, held, ok bool) {
	g = c.gs[i]
	if !gained {
		if g != noSpan {
			return g, false, false, false
		}
		g = c.asp[i]
	} else {
		g = g.join(c.asp[i])
	}
	r := j.res
	if g.lo >= r+d {
		return g, false, false, false
	}
	return g, g.hi > r, c.holds(j, i), true
}

// holds reports whether job j's reservation has a share on node i. The
// nodes it holds are marked once per job checked (heldMarks), not read
// share by share at each gained node: a wide job kept through a pass
// after an early end of a wide one was a walk of its shares for each
// gained node (gainRead, 6% of CTC-SP2 on 338 one-core nodes).
func (c *consNodes) holds(j *Job, i int32) bool {
	if c.oldPaths {
		return slices.ContainsFunc(j.resAlloc, func(sh share) bool { return sh.node == i })
	}
	c.heldMarks(j)
	return c.held[i] == c.heldStamp
}

// lastNode is the last node of j's reservation (-1: none).
func (c *consNodes) lastNode(j *Job) int32 {
	if c.oldPaths {
		last := int32(-1)
		for k := range j.resAlloc {
			last = max(last, j.resAlloc[k].node)
		}
		return last
	}
	c.heldMarks(j)
	return c.heldLast
}

// heldMarks marks, unless done since the last newCheck, the nodes of job
// j's reservation (c.held[i] == c.heldStamp) and notes its last node.
// The marks hold while j.resAlloc does not change: newCheck is called
// for each job checked before it is read.
func (c *consNodes) heldMarks(j *Job) {
	if c.heldFor == j && c.heldDone == c.heldStamp {
		return
	}
	c.heldFor, c.heldDone = j, c.heldStamp
	c.heldLast = -1
	for k := range j.resAlloc {
		i := j.resAlloc[k].node
		c.held[i] = c.heldStamp
		c.heldLast = max(c.heldLast, i)
	}
}

// newCheck forgets the marks of the last job checked (heldMarks).
func (c *consNodes) newCheck() { c.heldStamp++ }

// reachesBound is reaches without a scan, known when it can tell: each
// gained node's most bounded by what it gives j over the part of the
// window that every start the gain may have opened shares (when idle
// if there is none; its base when it has no events), the choice at
// j.res read on the node's window there. It is known when the choice may change (true) or the bounds sum
// below short (false, c.got their sum). On one-core nodes a gained node
// gives a job its core when idle, so the bound is what the scan finds.
func (c *consNodes) reachesBound(s *Sim, j *Job, d int64, short int64) (reaches, known bool) {
	m, n, r := s.m, &j.nd, j.res
	var got int64
	for _, gained := range [2]bool{true, false} {
		list := c.an
		if gained {
			list = c.gained
		}
		for _, i32 := range list {
			i := int(i32)
			g, atR, held, ok := c.gainRead(j, d, i32, gained)
			if !ok {
				continue
			}
			if held && atR {
				return true, true
			}
			if atR && !held && (m.best || i32 < c.lastNode(j)) && c.gainOver(s, i, n, r, d) > 0 {
				return true, true
			}
			switch {
			case held:
				got += m.gain(&m.cap, i, n)
			case len(c.ev[i]) == 0:
				if lo := g.lo - d + 1; max(lo, s.now) < min(g.hi, r) {
					got += m.gain(&c.base, i, n)
				}
			default:
				// every start in [a, b) has a window that holds [b-1,
				// a+d) when b-a ≤ d: what the node gives j there bounds
				// what it gives j at each of them
				a, b := max(g.lo-d+1, s.now), min(g.hi, r)
				switch {
				case a >= b: // no start
				case b-a <= d:
					got += c.gainOver(s, i, n, b-1, a+d-(b-1))
				default:
					got += m.gain(&m.cap, i, n)
				}
			}
		}
	}
	if c.got+got < short {
		c.got += got
		return false, true
	}
	return false, false
}

// reachesOn is reaches on the nodes of list: the gained ones (gained,
// with the span of the last pass's slots given back if any) or those of
// that span alone (the gained ones among them are done).
func (c *consNodes) reachesOn(s *Sim, j *Job, d int64, list []int32, gained bool, short int64) bool {
	m, n, r := s.m, &j.nd, j.res
	scalar := n.gpus == 0 && len(n.named) == 0
	for _, i32 := range list {
		i := int(i32)
		// atR: the gain meets the window at r, where first fit chose
		g, atR, held, ok := c.gainRead(j, d, i32, gained)
		if !ok {
			continue
		}
		if held && atR {
			return true
		}
		// most: the most the node may give j at a start before r whose
		// window meets g (its starts [lo, r) from now); at: at r
		lo := g.lo - d + 1
		var most, at int64
		switch {
		case held:
			// (its availability holds j's shares: what it gives j
			// without them is at most what it gives when idle)
			most = m.gain(&m.cap, i, n)
		case len(c.ev[i]) == 0:
			at = m.gain(&c.base, i, n)
			if max(lo, s.now) < min(g.hi, r) {
				most = at
			}
		default:
			if c.stale[i] {
				c.rebuild(s, i)
			}
			c.gev = c.gev[:0]
			// most reads the starts before g.hi, at the one at r: the
			// scan stops at the later that is read
			h := r
			if !atR {
				h = min(r, g.hi-1)
			}
			// once most reaches what the job still lacks, reachesOn
			// answers true whatever the rest of the scan gives (at r
			// too): the scan stops there (c.got is then unread)
			stop := short - c.got
			if c.oldPaths {
				stop = never
			}
			c.scan(s, i, n, d, max(s.now, lo), h, scalar, stop, min(g.hi, r))
			copyNode(m, &c.win, &c.base, i)
			var v int64
			for k, st := range c.gev {
				v += st.d
				end := never
				if k+1 < len(c.gev) {
					end = c.gev[k+1].t
				}
				if max(st.t, lo) < min(end, g.hi, r) {
					most = max(most, v)
				}
				if st.t <= r && r < end {
					at = v
				}
			}
		}
		// first fit at r looks at the nodes to j's last one: a node
		// there that can now hold a share may change its choice
		if atR && at > 0 && (m.best || i32 < c.lastNode(j)) {
			return true
		}
		if c.got += most; c.got >= short {
			return true
		}
	}
	return false
}

// planEnds notes, after a pass's starts, when its final availability
// gives each running job's resources back.
func (c *consNodes) planEnds(s *Sim) {
	p := &c.plan
	p.ends, p.nodes = p.ends[:0], p.nodes[:0]
	for _, ch := range s.run.chunks {
		for _, r := range ch {
			from := int32(len(p.nodes))
			for k := range r.alloc {
				p.nodes = append(p.nodes, r.alloc[k].node)
			}
			p.ends = append(p.ends, planEnd{s.freeFrom(r), r.seq, r, from, int32(len(p.nodes))})
		}
	}
	slices.SortFunc(p.ends, func(a, b planEnd) int { return cmp.Compare(a.t, b.t) })
}

// moved notes that a job whose reservation was at r0 (-1: none) on
// c.old for d seconds now starts or is reserved at t on shs (t < 0:
// nowhere): if it moved, its old slot is given back, a gain on its nodes
// (gs) that the plan notes too (gave, for the next pass's after).
func (c *consNodes) moved(r0, d, t int64, shs []share, best bool) {
	if r0 >= 0 && t == r0 && slices.Equal(shs, c.old) {
		return
	}
	if r0 >= 0 {
		c.slot(span{r0, r0 + d}, c.old)
	}
	// best fit: the new slot, a loss that may change the choice of the
	// jobs after it (consPlan's Best fit)
	if best && t >= 0 {
		sp := span{t, t + d}
		tk := &c.plan.tk
		tk.next = append(tk.next, sp)
		for k := range shs {
			tk.nextNodes = append(tk.nextNodes, shs[k].node)
			c.lose(shs[k].node, sp)
		}
		tk.nextAt = append(tk.nextAt, int32(len(tk.nextNodes)))
	}
}

// slot notes a gain over sp on the nodes of shs, for this pass and the
// next one's after.
func (c *consNodes) slot(sp span, shs []share) {
	p := &c.plan
	p.nextGave = append(p.nextGave, sp)
	for k := range shs {
		p.nextNodes = append(p.nextNodes, shs[k].node)
		c.gain(shs[k].node, sp)
	}
	p.nextAt = append(p.nextAt, int32(len(p.nextNodes)))
}

// gain notes that node i has more over sp than when the jobs the plan
// settled were placed.
func (c *consNodes) gain(i int32, sp span) {
	if c.gs[i] == noSpan {
		c.gained = append(c.gained, i)
	}
	c.gs[i] = c.gs[i].join(sp)
}

// afterNodes makes al, ap and alNodes from gave, gaveAt and gaveNodes.
func (p *consPlan) afterNodes() {
	p.alNodes = listSlots(p.gave, p.gaveAt, p.gaveNodes, p.al, p.ap, p.alNodes)
}

// listSlots lists slots (slot e on nodes[at[e-1]:at[e]]) by node: l[i]
// for node i in listed (those of the last call cleared first, the new
// ones returned) each slot on it (its index e) with the span of the
// slots on i from e on, by e descending; p[i] its last entry.
func listSlots(slots []span, at, nodes []int32, l [][]planAfter, p []int, listed []int32) []int32 {
	for _, i := range listed {
		l[i] = l[i][:0]
	}
	listed = listed[:0]
	for e := len(slots) - 1; e >= 0; e-- {
		from := int32(0)
		if e > 0 {
			from = at[e-1]
		}
		for _, i := range nodes[from:at[e]] {
			li, sp := l[i], slots[e]
			if len(li) == 0 {
				listed = append(listed, i)
			} else {
				sp = sp.join(li[len(li)-1].sp)
			}
			l[i] = append(li, planAfter{e, sp})
		}
	}
	for _, i := range listed {
		p[i] = len(l[i]) - 1
	}
	return listed
}

// add inserts event e on node i, after the events of earlier or equal
// time, comebacks first at one instant.
func (c *consNodes) add(i int, e nodeEv) {
	if !c.listed[i] {
		c.listed[i] = true
		c.used = append(c.used, int32(i))
	}
	c.stale[i] = true
	l := c.ev[i]
	// (the events after it: a suffix, the list being in that order)
	at, _ := slices.BinarySearchFunc(l, e, func(x, e nodeEv) int {
		if x.t > e.t || x.t == e.t && x.sign < e.sign {
			return 1
		}
		return -1
	})
	l = slices.Insert(l, at, e)
	c.ev[i] = l
}

// hold takes job j's shares (its reservation's, or its allocation's when
// it starts now) over [t, t+d).
func (c *consNodes) hold(j *Job, t, d int64, res bool) {
	shs := j.alloc
	if res {
		shs = j.resAlloc
	}
	for k := range shs {
		i := int(shs[k].node)
		keep := c.fresh(i, &shs[k])
		c.add(i, nodeEv{t: t, jb: j, k: int32(k), sign: -1, res: res})
		c.add(i, nodeEv{t: t + d, jb: j, k: int32(k), sign: 1, res: res})
		if keep {
			c.stale[i] = false
			c.segApply(i, t, t+d, &shs[k], -1)
		}
	}
}

// drop removes job j's reservation.
func (c *consNodes) drop(j *Job) {
	for k := range j.resAlloc {
		i := j.resAlloc[k].node
		keep := c.fresh(int(i), &j.resAlloc[k])
		lo, hi := c.dropOn(i, j)
		if keep && lo != never && hi != never {
			c.segApply(int(i), lo, hi, &j.resAlloc[k], 1)
			continue
		}
		c.stale[i] = true
	}
}

// dropOn removes job j's reservation's events from node i's list and
// returns their times (never: none of that sign). hold took them at j.res
// and j.res+max(j.p, 1), and whatever changes either since makes the
// pass rebuild (consPlan) before any drop, so they are looked for at
// those two instants by binary search, the list's other events left as
// they were, rather than by a test of every event on the node (a node
// holds hundreds on a deep queue: drop was 10% of CTC-SP2 on 338
// one-core nodes). If either instant holds none of them, the whole list
// is tested, as before: the same list and times either way.
func (c *consNodes) dropOn(i int32, j *Job) (lo, hi int64) {
	lo, hi = never, never
	l := c.ev[i]
	// cut removes j's events at instant t, reporting whether there were
	// any; the run of events at t keeps its order
	cut := func(t int64) bool {
		at, _ := slices.BinarySearchFunc(l, t, func(x nodeEv, t int64) int { return cmp.Compare(x.t, t) })
		w, x := at, at
		for ; x < len(l) && l[x].t == t; x++ {
			e := l[x]
			if e.jb != j || !e.res {
				l[w] = e
				w++
				continue
			}
			if e.sign < 0 {
				lo = e.t
			} else {
				hi = e.t
			}
		}
		if w == x {
			return false
		}
		l = slices.Delete(l, w, x)
		return true
	}
	if !c.oldPaths && cut(j.res) && cut(j.res+max(j.p, 1)) {
		c.cuts++
		c.ev[i] = l
		return lo, hi
	}
	c.ev[i] = slices.DeleteFunc(l, func(e nodeEv) bool {
		if e.jb != j || !e.res {
			return false
		}
		if e.sign < 0 {
			lo = e.t
		} else {
			hi = e.t
		}
		return true
	})
	return lo, hi
}

// fresh reports whether node i's segments are up to date and counted
// (c.sum), and share sh, taken or given back, can be applied to them in
// place (segApply): cores, memory and GPUs alone, on one node.
func (c *consNodes) fresh(i int, sh *share) bool {
	return !c.stale[i] && c.sum.in[i] && c.base.named == nil && sh.more == 0
}

// segApply applies share sh, taken (sign −1) or given back (1) over
// [lo, hi), to node i's segments in place, and the change of its free
// cores (clamped at 0) to c.sum: what rebuilding them from the events
// would give, at every time from their first on, without a walk over
// the node's events (a rebuild applies every event of the node: on a
// deep queue hundreds per node, for each job placed).
func (c *consNodes) segApply(i int, lo, hi int64, sh *share, sign int64) {
	sg := &c.segs[i]
	lo = max(lo, sg.t[0])
	if lo >= hi {
		return
	}
	a := sg.split(lo)
	b := sg.split(hi)
	nc := sg.nc
	var prev int64 // the change of the clamped cores on the segment before
	for k := a; k < b; k++ {
		v := sg.v[k*nc : (k+1)*nc]
		old := max(v[0], 0)
		v[0] += sign * sh.cores
		v[1] += sign * sh.mem
		for bs := sh.gpus; bs != 0; bs &= bs - 1 {
			v[2+bits.TrailingZeros64(bs)] += sign * int64(sh.gpuPart)
		}
		diff := max(v[0], 0) - old
		c.sum.step(sg.t[k], diff-prev)
		prev = diff
	}
	if b < len(sg.t) {
		c.sum.step(sg.t[b], -prev)
	}
}

// split makes x the start of a segment (copying the one that holds x,
// or the last) and returns its index; x ≥ the first segment's start.
func (sg *nodeSegs) split(x int64) int {
	k, found := slices.BinarySearch(sg.t, x)
	if found {
		return k
	}
	// segment k-1 holds x
	nc := sg.nc
	sg.t = slices.Insert(sg.t, k, x)
	sg.v = slices.Grow(sg.v, nc)[:len(sg.v)+nc]
	copy(sg.v[(k+1)*nc:], sg.v[k*nc:])
	copy(sg.v[k*nc:(k+1)*nc], sg.v[(k-1)*nc:k*nc])
	return k
}

func (e *nodeEv) share() *share {
	if e.res {
		return &e.jb.resAlloc[e.k]
	}
	return &e.jb.alloc[e.k]
}

// earliest returns the earliest time in [from, h] (from ≥ now) from
// which job j fits for d seconds, or never, and sets c.short. It leaves
// in c.touched the nodes with events, their segments up to date.
func (c *consNodes) earliest(s *Sim, j *Job, d, from, h int64) int64 {
	m, n := s.m, &j.nd
	want := n.nodes
	if want == 0 {
		want = n.cores
	}
	// A job without GPUs or named resources has a gain that is, window by
	// window, the minimum of a gain segment by segment: one deque.
	scalar := n.gpus == 0 && len(n.named) == 0
	c.touch(s)
	var idle int64      // what the nodes without events offer, from now on
	var idleCores int64 // their free cores
	for i := range m.kind {
		if len(c.ev[i]) == 0 {
			idle += m.gain(&c.base, i, n)
			idleCores += max(c.base.cores[i], 0)
		}
	}
	if c.verify != nil {
		c.verify(s, idleCores)
	}
	if from > h {
		c.short = want
		return never
	}
	// The runs of starts the free cores summed over the nodes leave
	// (coreSum): a node gives at most its free cores (per: a share's
	// cores for a job of shares; none: no bound).
	per, bounded := int64(1), true
	if n.nodes > 0 {
		per, bounded = n.cores, n.cores > 0
	}
	bounded = bounded && !c.noSum
	c.runs = append(c.runs[:0], span{from, h})
	if bounded {
		c.runs = c.sum.allowed(s.now, idleCores, want*per, d, from, h, c.runs[:0])
	}
	var most int64
	found := never
	for _, run := range c.runs {
		c.gev = c.gev[:0]
		for _, i := range c.touched {
			c.scan(s, int(i), n, d, run.lo, run.hi, scalar, never, never)
		}
		if idle > 0 {
			c.gev = append(c.gev, gainStep{run.lo, idle})
		}
		slices.SortFunc(c.gev, func(a, b gainStep) int { return cmp.Compare(a.t, b.t) })
		var have int64
		for k := 0; k < len(c.gev) && found == never; {
			t := c.gev[k].t
			for ; k < len(c.gev) && c.gev[k].t == t; k++ {
				have += c.gev[k].d
			}
			if have >= want {
				found = t
				break
			}
			most = max(most, have)
		}
		if found != never {
			break
		}
	}
	if bounded {
		// at the starts the sum ruled out, the job had at most the
		// sum's largest value there (in shares: its cores / per)
		if b := c.sum.badMost(d, found); b >= 0 {
			most = max(most, b/per)
		}
	}
	c.short = want - most
	if c.sumCheck != nil && bounded {
		c.sumCheck(s, j, d, from, h, found)
	}
	return found
}

// touch lists in c.touched the nodes with events, their segments up to
// date and counted in c.sum (and the others not).
func (c *consNodes) touch(s *Sim) {
	c.touched = c.touched[:0]
	for i := range s.m.kind {
		if len(c.ev[i]) == 0 {
			if c.sum.in[i] {
				c.sum.count(&c.segs[i], -1)
				c.sum.in[i] = false
			}
			continue
		}
		c.touched = append(c.touched, int32(i))
		if c.stale[i] {
			c.rebuild(s, i)
		}
	}
}

// rebuild makes node i's segments from its events.
func (c *consNodes) rebuild(s *Sim, i int) {
	m, sg := s.m, &c.segs[i]
	c.stale[i] = false
	if c.sum.in[i] {
		c.sum.count(sg, -1)
	}
	sg.nc = 2 + int(m.gpuAt[i+1]-m.gpuAt[i])
	if m.cap.named != nil {
		sg.nc += len(c.keys[m.kind[i]])
	}
	sg.t, sg.v = sg.t[:0], sg.v[:0]
	evs := c.ev[i]
	k := 0
	for k < len(evs) && evs[k].t <= s.now {
		c.apply(m, &evs[k])
		k++
	}
	c.push(m, i, s.now)
	for k < len(evs) {
		t := evs[k].t
		for ; k < len(evs) && evs[k].t == t; k++ {
			c.apply(m, &evs[k])
		}
		c.push(m, i, t)
	}
	copyNode(m, &c.cur, &c.base, i)
	c.sum.count(sg, 1)
	c.sum.in[i] = true
}

// push appends a segment from t with node i's resources in c.cur.
func (c *consNodes) push(m *machine, i int, t int64) {
	sg := &c.segs[i]
	sg.t = append(sg.t, t)
	sg.v = append(sg.v, c.cur.cores[i], c.cur.mem[i])
	for g := m.gpuAt[i]; g < m.gpuAt[i+1]; g++ {
		sg.v = append(sg.v, int64(c.cur.gpu[g]))
	}
	if m.cap.named != nil {
		for _, k := range c.keys[m.kind[i]] {
			sg.v = append(sg.v, c.cur.named[i][k])
		}
	}
}

// segGain is what one segment of node i, resources v, offers a job of
// need n without GPUs or named resources (the scalar path).
func (c *consNodes) segGain(m *machine, i int, v []int64, n *need) int64 {
	if n.excl && !c.idle(m, i, v) {
		return 0
	}
	if n.nodes == 0 {
		u := v[0]
		if n.mem > 0 {
			u = min(u, v[1]/n.mem)
		}
		return max(u, 0)
	}
	if v[0] >= n.cores && v[1] >= n.mem {
		return 1
	}
	return 0
}

// idle reports whether resources v are all of node i's.
func (c *consNodes) idle(m *machine, i int, v []int64) bool {
	if v[0] != m.cap.cores[i] || v[1] != m.cap.mem[i] {
		return false
	}
	r := 2
	for range m.gpuAt[i+1] - m.gpuAt[i] {
		if v[r] != 1000 {
			return false
		}
		r++
	}
	if m.cap.named != nil {
		for _, k := range c.keys[m.kind[i]] {
			if v[r] != m.cap.named[i][k] {
				return false
			}
			r++
		}
	}
	return true
}

// scan appends to c.gev the steps of node i's gain for job need n as a
// function of the window's start t: the minimum of each resource over
// the segments that meet [t, t+d), a deque per resource (one deque of
// segment gains on the scalar path). It stops early, after the step
// that reaches it, at a gain of stop or more from a start before the
// time before (never: it does not).
func (c *consNodes) scan(s *Sim, i int, n *need, d, from, h int64, scalar bool, stop, before int64) {
	if scalar && !c.oldPaths {
		c.scanScalar(s.m, i, n, d, from, h, stop, before)
		return
	}
	m, sg := s.m, &c.segs[i]
	T, V, K := sg.t, sg.v, len(sg.t)
	nc := sg.nc
	if scalar {
		c.vals = slices.Grow(c.vals[:0], K)[:K]
		nc = 1
	}
	c.dq = slices.Grow(c.dq[:0], nc*K)[:nc*K]
	c.head = slices.Grow(c.head[:0], nc)[:nc]
	c.tail = slices.Grow(c.tail[:0], nc)[:nc]
	for r := range nc {
		c.head[r], c.tail[r] = int32(r*K), int32(r*K)
	}
	// from the segment that holds from (those before end by from)
	lo, _ := slices.BinarySearch(T, from+1)
	lo = max(lo-1, 0)
	hi := lo - 1
	var prev int64
	for t := from; ; {
		for hi+1 < K && T[hi+1]-d+1 <= t { // segment hi+1 enters the window
			hi++
			if scalar { // the segment's gain, computed as it enters
				c.vals[hi] = c.segGain(m, i, V[hi*sg.nc:(hi+1)*sg.nc], n)
			}
			for r := range nc {
				W := V
				if scalar {
					W = c.vals
				}
				v := W[hi*nc+r]
				b := c.tail[r]
				for b > c.head[r] && W[int(c.dq[b-1])*nc+r] >= v {
					b--
				}
				c.dq[b] = int32(hi)
				c.tail[r] = b + 1
			}
		}
		for lo+1 < K && T[lo+1] <= t { // segment lo leaves it
			lo++
		}
		for r := range nc {
			for int(c.dq[c.head[r]]) < lo {
				c.head[r]++
			}
		}
		var g int64
		if scalar {
			g = c.vals[c.dq[c.head[0]]]
		} else {
			c.setWin(m, i, func(r int) int64 { return V[int(c.dq[c.head[r]])*nc+r] })
			g = m.gain(&c.win, i, n)
		}
		if g != prev {
			c.gev = append(c.gev, gainStep{t, g - prev})
			prev = g
		}
		if g >= stop && t < before {
			c.stops++
			return
		}
		next := never
		if hi+1 < K {
			next = T[hi+1] - d + 1
		}
		if lo+1 < K {
			next = min(next, T[lo+1])
		}
		if next == never || next > h { // the last segment, or past the horizon
			return
		}
		t = next
	}
}

// scanScalar is scan on the scalar path: one deque of the segments'
// gains, without the loops over resources of the general path (the
// scans are a third of conservative backfilling on CTC-SP2's 338 one-core
// nodes).
func (c *consNodes) scanScalar(m *machine, i int, n *need, d, from, h, stop, before int64) {
	sg := &c.segs[i]
	T, V, K, nc := sg.t, sg.v, len(sg.t), sg.nc
	c.vals = slices.Grow(c.vals[:0], K)[:K]
	c.dq = slices.Grow(c.dq[:0], K)[:K]
	vals, dq := c.vals, c.dq
	head, tail := 0, 0
	// from the segment that holds from (those before end by from)
	lo, _ := slices.BinarySearch(T, from+1)
	lo = max(lo-1, 0)
	hi := lo - 1
	var prev int64
	for t := from; ; {
		for hi+1 < K && T[hi+1]-d+1 <= t { // segment hi+1 enters the window
			hi++
			v := c.segGain(m, i, V[hi*nc:(hi+1)*nc], n)
			vals[hi] = v
			for tail > head && vals[dq[tail-1]] >= v {
				tail--
			}
			dq[tail] = int32(hi)
			tail++
		}
		for lo+1 < K && T[lo+1] <= t { // segment lo leaves it
			lo++
		}
		for int(dq[head]) < lo {
			head++
		}
		g := vals[dq[head]]
		if g != prev {
			c.gev = append(c.gev, gainStep{t, g - prev})
			prev = g
		}
		if g >= stop && t < before {
			c.stops++
			return
		}
		next := never
		if hi+1 < K {
			next = T[hi+1] - d + 1
		}
		if lo+1 < K {
			next = min(next, T[lo+1])
		}
		if next == never || next > h { // the last segment, or past the horizon
			return
		}
		t = next
	}
}

// setWin sets node i's resources in c.win to v(r), resource by resource.
func (c *consNodes) setWin(m *machine, i int, v func(r int) int64) {
	c.win.cores[i], c.win.mem[i] = v(0), v(1)
	r := 2
	for g := m.gpuAt[i]; g < m.gpuAt[i+1]; g++ {
		c.win.gpu[g] = int32(v(r))
		r++
	}
	if m.cap.named != nil {
		for _, k := range c.keys[m.kind[i]] {
			c.win.named[i][k] = v(r)
			r++
		}
	}
}

// window sets c.win, on every node the last scan touched, to the node's
// minimum over [t, t+d).
func (c *consNodes) window(m *machine, t, d int64) {
	for _, i32 := range c.touched {
		c.windowOn(m, int(i32), t, d)
	}
}

// windowOn sets c.win on node i to its minimum over [t, t+d) (its
// segments, c.segs[i], up to date).
func (c *consNodes) windowOn(m *machine, i int, t, d int64) {
	sg := &c.segs[i]
	T, V, nc := sg.t, sg.v, sg.nc
	lo, _ := slices.BinarySearch(T, t+1) // (the last segment from t or before)
	lo = max(lo-1, 0)
	if nc == 2 && !c.oldPaths { // cores and memory alone (setWin's, without its closure)
		cores, mem := V[2*lo], V[2*lo+1]
		for k := lo + 1; k < len(T) && T[k] < t+d; k++ {
			cores, mem = min(cores, V[2*k]), min(mem, V[2*k+1])
		}
		c.win.cores[i], c.win.mem[i] = cores, mem
		return
	}
	// the minimum of each resource, segment by segment
	mins := append(c.mins[:0], V[lo*nc:(lo+1)*nc]...)
	for k := lo + 1; k < len(T) && T[k] < t+d; k++ {
		for r, v := range V[k*nc : (k+1)*nc] {
			mins[r] = min(mins[r], v)
		}
	}
	c.mins = mins
	c.setWin(m, i, func(r int) int64 { return mins[r] })
}

// apply applies event e to c.cur. It is machine.apply, but a whole-node
// share's named resources are taken and given back as the node's whole
// amount rather than cleared and set: the same on a node the share found
// idle, and additive, so that reservations a stale prediction pushed
// onto one another (S3: each moved to now) still sum back to the node's
// capacity once they end.
func (c *consNodes) apply(m *machine, e *nodeEv) {
	sh, n, a, sign := e.share(), &e.jb.nd, &c.cur, int64(e.sign)
	i := sh.node
	a.cores[i] += sign * sh.cores
	a.mem[i] += sign * sh.mem
	g0 := m.gpuAt[i]
	for b := sh.gpus; b != 0; b &= b - 1 {
		a.gpu[g0+int32(bits.TrailingZeros64(b))] += int32(sign) * int32(sh.gpuPart)
	}
	if a.named == nil {
		return
	}
	named := n.named
	if n.excl {
		named = m.cap.named[i]
	}
	for k, v := range named {
		a.named[i][k] += sign * v
	}
}

// clean gives c.win back the base on the nodes the scan touched and the
// shares shs took.
func (c *consNodes) clean(m *machine, shs []share) {
	for _, i := range c.touched {
		copyNode(m, &c.win, &c.base, int(i))
	}
	for k := range shs {
		copyNode(m, &c.win, &c.base, int(shs[k].node))
	}
}

// copyNode sets node i's resources in dst to those in src.
func copyNode(m *machine, dst, src *avail, i int) {
	dst.cores[i], dst.mem[i] = src.cores[i], src.mem[i]
	copy(dst.gpu[m.gpuAt[i]:m.gpuAt[i+1]], src.gpu[m.gpuAt[i]:m.gpuAt[i+1]])
	if src.named != nil {
		clear(dst.named[i])
		maps.Copy(dst.named[i], src.named[i])
	}
}

// tookSlots is, under best fit, the slots a pass's jobs took anew (new
// reservations and starts, arrivals' too), each on the nodes of its
// shares: slots, at and nodes as consPlan's gave, gaveAt and gaveNodes;
// next, nextAt and nextNodes the current pass's; l[i] for node i in
// listed each slot on it (its index e) with the span of the slots on i
// from e on, by e descending, p[i] the entry the next job reads.
type tookSlots struct {
	slots, next      []span
	at, nextAt       []int32
	nodes, nextNodes []int32
	l                [][]planAfter
	p                []int
	listed           []int32
}

// turn makes the current pass's slots the plan's and lists them by node.
func (tk *tookSlots) turn(nodes int) {
	tk.slots, tk.next = tk.next, tk.slots[:0]
	tk.at, tk.nextAt = tk.nextAt, tk.at[:0]
	tk.nodes, tk.nextNodes = tk.nextNodes, tk.nodes[:0]
	if tk.l == nil {
		tk.l, tk.p = make([][]planAfter, nodes), make([]int, nodes)
	}
	tk.listed = listSlots(tk.slots, tk.at, tk.nodes, tk.l, tk.p, tk.listed)
}

// lossReaches reports, under best fit, whether a loss since job j,
// reserved at j.res for d, was placed (c.lost, this pass's; and the
// slots the last pass's jobs took after j, from the ta-th on) meets its
// window on a node of its reservation, or on a node that can hold a
// share of it over that window: best fit ranks the nodes that can by what
// they have, so a loss there may change its choice; a node that cannot
// was not chosen, and a loss before the window opens no start.
func (c *consNodes) lossReaches(s *Sim, j *Job, d int64, ta int) bool {
	tk, r := &c.plan.tk, j.res
	hit := func(i int32, g span) bool {
		if g.lo >= r+d || g.hi <= r {
			return false
		}
		return c.holds(j, i) || c.gainOver(s, int(i), &j.nd, r, d) > 0
	}
	for _, i := range tk.listed {
		l, k := tk.l[i], tk.p[i]
		for k >= 0 && l[k].e < ta {
			k--
		}
		tk.p[i] = k
		if k >= 0 && hit(i, l[k].sp) {
			return true
		}
	}
	for _, i := range c.lost {
		if hit(i, c.ls[i]) {
			return true
		}
	}
	return false
}

// gainOver is what node i gives a job of need n over [t, t+d): its gain
// on the node's minimum there.
func (c *consNodes) gainOver(s *Sim, i int, n *need, t, d int64) int64 {
	m := s.m
	if len(c.ev[i]) == 0 {
		return m.gain(&c.base, i, n)
	}
	if c.stale[i] {
		c.rebuild(s, i)
	}
	c.windowOn(m, i, t, d)
	g := m.gain(&c.win, i, n)
	copyNode(m, &c.win, &c.base, i)
	return g
}
