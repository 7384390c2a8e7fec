package sched

import (
	"math/bits"

	"github.com/batchq/batchq/swf"
)

// EASY on a machine of nodes (Config.Nodes): the same pass as on one pool
// (§2.2), with "fits" meaning "the placement finds nodes for it" and the
// extra processors generalised to the free resources of every node at the
// shadow time less the holder's shares there.

// easyNodesPass starts holders while they fit, then reserves the holder's
// earliest start and backfills the other jobs, in Backfill order, that
// fit now and either end by the shadow or leave the holder room at the
// shadow. It keeps the one-pool pass's memo (easyMemo): after arrivals
// alone, the same holder, shadow and free resources, only the new jobs
// need a look.
func (s *Sim) easyNodesPass(e EASYScheduler, q, b order) {
	if m := &s.memo; m.ok && m.epoch == s.epoch && q == ByArrival && (b == ByArrival || b == ByPrediction) &&
		m.b == b && m.safe == e.EstimateSafe {
		if h, _ := s.waitFCFS.Min(); h == m.holder && s.free == m.free {
			s.have = m.extra
			s.backfillNodes(h, e, b, m.shadow, m.next)
			return
		}
	}
	for {
		h := s.holder(q, e.Queue)
		if h == nil {
			return
		}
		if s.placeNow(h) {
			s.startJob(h, false)
			continue
		}
		shadow := s.earliest(h)
		e0 := s.epoch
		s.reserve(h, shadow)
		stale := s.epoch != e0
		s.backfillNodes(h, e, b, shadow, 0)
		if stale { // (see easyPass)
			s.memo.ok = false
		}
		return
	}
}

// backfillNodes starts the waiting jobs, among those that arrived at or
// after seq from (0: all), that fit now and do not delay holder h: they
// end by the shadow, or leave h room at the shadow (keepsHolder).
func (s *Sim) backfillNodes(h *Job, e EASYScheduler, b order, shadow, from int64) {
	s.buf = s.buf[:0]
	free := s.free
	tie := false // as in backfillFrom: a job ending at the shadow joins it
	visit := func(k *Job) bool {
		if k == h || k.nd.cores > free || k.nd.nodes*k.nd.cores > free {
			return true
		}
		viaTime := s.now+k.p <= shadow && (!e.EstimateSafe || s.now+k.e <= shadow)
		if !viaTime && (s.spreadCannotKeep(h, k) || s.wasteCannotKeep(h, k)) {
			return true
		}
		var ok bool
		as := [1]*avail{&s.m.free}
		if k.alloc, ok = s.m.placeIn(as[:], k, &k.nd, k.alloc[:0]); !ok {
			return true
		}
		if !viaTime && !s.keepsHolder(h, k) {
			s.freeShares(k)
			return true
		}
		// No memo after a start at the shadow, nor after one predicted to
		// end by it that keeps the holder's room instead (EstimateSafe):
		// the next pass counts its share free at the shadow (easy.go's
		// take says the same).
		tie = tie || viaTime && s.now+k.p == shadow || !viaTime && s.now+k.p <= shadow
		free -= k.heldCores()
		s.buf = append(s.buf, k)
		return free > 0
	}
	if free > 0 {
		free0 := free // (visit refuses these at every point of the walk: free only falls)
		s.visitBackfill(e, b, from, visit, func(k *Job) bool {
			return k.nd.cores > free0 || k.nd.nodes*k.nd.cores > free0
		})
	}
	seen, epoch := s.startBackfills(s.buf, false)
	s.memo = easyMemo{ok: !tie, b: b, safe: e.EstimateSafe, epoch: epoch, holder: h, free: s.free, shadow: shadow, extra: s.have, next: seen}
}

// spreadCannotKeep is keepsHolder's answer before placing k, where it is
// plain arithmetic. Beside a holder h of cores spread over nodes, k takes
// at least its cores from what h could use at the shadow: every core if h
// needs only free cores (coresOnly); and if h asks memory per core, whenever k is spread too
// and asks at least as much memory per core (each core k takes costs h a
// core, or memory for one).
func (s *Sim) spreadCannotKeep(h, k *Job) bool {
	if h.nd.nodes != 0 {
		return false
	}
	c := k.nd.cores
	if k.nd.nodes > 0 {
		c *= k.nd.nodes
	}
	if s.m.coresOnly(&h.nd) || k.nd.nodes == 0 && k.nd.mem >= h.nd.mem {
		return s.have-c < s.want
	}
	return false
}

// wasteCannotKeep is a bound that spares placing k (and taking it back)
// when it cannot keep a spread holder h, whatever nodes it would get. A
// share of k of c cores on node i costs h at least c − waste_i of what it
// could use there at the shadow, where waste_i is the cores of node i then
// that h cannot use (its memory short of h's per core): h keeps at most
// a − c of the node's a cores, and could use a − waste_i of them. So k,
// taking at least its cores C over all its shares, costs h at least
// C − s.waste, the waste summed over all nodes (earliest and keepsHolder
// keep it). On nodes where h is bound by cores alone (LANL-CM5's one-core
// nodes: a free core is a whole free node) the waste is 0 and the bound
// is exact: EASY counting memory there placed and took back every
// candidate that could not keep the holder, 97% of them.
func (s *Sim) wasteCannotKeep(h, k *Job) bool {
	if h.nd.nodes != 0 || s.m.coresOnly(&h.nd) {
		return false // (coresOnly: spreadCannotKeep's exact test)
	}
	c := k.nd.cores
	if k.nd.nodes > 0 {
		c *= k.nd.nodes // whole nodes: at least as many
	}
	return s.have-c+s.waste < s.want
}

// coresOnly reports whether a need is cores spread over any nodes and
// nothing else: then only the count of free cores matters to it. So it
// does on a machine of one-core nodes for a spread job whose memory per
// core every node has (LANL-CM5 with its memory counted): a free core
// there is a free node, with all its memory.
func (m *machine) coresOnly(n *need) bool {
	return n.nodes == 0 && (n.mem == 0 || m.oneCore && !n.excl && n.mem <= m.minMem)
}

// earliest returns the earliest time waiting job h fits, if the running
// jobs end as predicted (a stale predicted end counts as it is, S3): the
// first predicted end after which enough nodes have room for h's shares
// (or, for a spread job, enough cores), jobs ending at that same instant
// all counted as ended (on one pool Config.ShadowTies chooses; on nodes,
// which of two jobs ending at one instant ends first has no meaning). It
// leaves in s.shadowAv the free resources then, in s.have what h could
// use of them and in s.want what it needs (see keepsHolder). never if h
// fits nowhere even then.
func (s *Sim) earliest(h *Job) int64 {
	m, n := s.m, &h.nd
	if m.coresOnly(n) {
		// What h can use of a node is its free cores: s.free now, and
		// each ending job's cores; no node need be looked at.
		s.want, s.have = n.cores, s.free
		if s.have >= s.want {
			return s.now
		}
		shadow := never
		s.run.Ascend(func(r *Job) bool {
			if shadow != never && r.predEnd() != shadow {
				return false
			}
			s.have += r.held
			if shadow == never && s.have >= s.want {
				shadow = r.predEnd()
			}
			return true
		})
		return shadow
	}
	a := &s.shadowAv
	a.copyFrom(&m.free)
	s.want = n.nodes
	if n.nodes == 0 {
		s.want = n.cores
	}
	s.have, s.waste = 0, 0
	spread := n.nodes == 0
	// Only a node with a free core gains h anything (h asks at least one
	// core per node) or wastes any: the nodes of m.hasFree, a few on a
	// machine where h waits, against all of them (LANL-CM5's 1,024 at
	// every pass, most of EASY's time with its memory counted).
	for w, bs := range m.hasFree {
		for ; bs != 0; bs &= bs - 1 {
			i := w<<6 | bits.TrailingZeros64(bs)
			g := m.gain(a, i, n)
			s.have += g
			if spread {
				s.waste += a.cores[i] - g
			}
		}
	}
	if s.have >= s.want {
		return s.now // it fits now (Pass.Earliest on a job that fits)
	}
	shadow := never
	s.run.Ascend(func(r *Job) bool {
		if shadow != never && r.predEnd() != shadow {
			return false
		}
		for k := range r.alloc {
			for j := int32(0); j <= int32(r.alloc[k].more); j++ { // each node of a run
				sh := r.alloc[k].one(j)
				i := int(sh.node)
				g := m.gain(a, i, n)
				m.apply(a, &sh, &r.nd, 1)
				dg := m.gain(a, i, n) - g
				s.have += dg
				if spread {
					s.waste += sh.cores - dg
				}
			}
		}
		if shadow == never && s.have >= s.want {
			shadow = r.predEnd()
		}
		return true
	})
	return shadow
}

// keepsHolder reports whether job k, just placed now (k.alloc) and
// running past the shadow, leaves holder h room at the shadow; if so it
// takes k's shares from s.shadowAv. Any node of the shadow's free
// resources may hold h's shares: k only has to leave enough of them, as
// the extra processors of one pool (§2.2) do.
func (s *Sim) keepsHolder(h, k *Job) bool {
	m, a := s.m, &s.shadowAv
	if m.coresOnly(&h.nd) { // every core k takes is one h cannot use (earliest)
		c := k.heldCores()
		if s.have-c < s.want {
			return false
		}
		s.have -= c
		return true
	}
	have, waste := s.have, s.waste
	for i := range k.alloc {
		for j := int32(0); j <= int32(k.alloc[i].more); j++ { // each node of a run
			sh := k.alloc[i].one(j)
			node := int(sh.node)
			g := m.gain(a, node, &h.nd)
			m.apply(a, &sh, &k.nd, -1)
			dg := m.gain(a, node, &h.nd) - g
			have += dg
			waste += -sh.cores - dg // (used by a spread holder only)
		}
	}
	if have >= s.want {
		s.have, s.waste = have, waste
		return true
	}
	for i := range k.alloc {
		m.apply(a, &k.alloc[i], &k.nd, 1)
	}
	return false
}

// Earliest returns the earliest time waiting job j fits if the running
// jobs end as predicted (Now if it fits now; never, 2^63−1, if it never
// does): EASY's reservation for it. On one pool it is Shadow(j.Size());
// on a machine of nodes it places j node by node, and jobs ending at that
// same instant all count as ended. It ignores other reservations.
func (p *Pass) Earliest(j *Job) int64 {
	s := p.s
	if s.m == nil {
		if j.n <= s.free {
			return s.now
		}
		t, _ := s.shadow(j.n)
		return t
	}
	s.memo.ok = false // earliest overwrites the pass's look-ahead
	return s.earliest(j)
}

// Nodes returns the free resources of every node, in node order, or nil
// on a machine of one pool. It allocates.
func (p *Pass) Nodes() []NodeFree {
	m := p.s.m
	if m == nil {
		return nil
	}
	out := make([]NodeFree, len(m.kind))
	for i := range out {
		out[i] = m.nodeFree(&m.free, i)
	}
	return out
}

// Demand is what the job asks of a machine of nodes, normalised: Nodes 0
// (spread) or the node count, Cores per node (or in all), Memory per
// node (or per core); the zero Demand on one pool.
func (j *Job) Demand() swf.Demand {
	if j.jobNodes == nil {
		return swf.Demand{}
	}
	n := &j.nd
	return swf.Demand{Nodes: n.nodes, Cores: n.cores, Memory: n.mem, GPUs: n.gpus,
		GPUModels: n.models, Named: n.named, Exclusive: n.excl}
}
