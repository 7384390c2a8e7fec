package sched

import "github.com/batchq/batchq/swf"

// EASY on a machine of nodes (Config.Nodes): the same pass as on one pool
// (§2.2), with "fits" meaning "the placement finds nodes for it" and the
// extra processors generalised to the free resources of every node at the
// shadow time less the holder's shares there.

// easyNodesPass starts holders while they fit, then reserves the holder's
// earliest start and backfills the other jobs, in Backfill order, that
// fit now and either end by the shadow or fit, node by node, beside the
// holder's shares at the shadow.
func (s *Sim) easyNodesPass(e EASYScheduler, q, b order) {
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
		s.reserve(h, shadow)
		s.cands = s.cands[:0]
		visit := func(k *Job) bool {
			if k != h {
				s.cands = append(s.cands, k)
			}
			return true
		}
		switch b {
		case ByLXFW:
			s.ascendPriority(visit)
		case ByPrediction:
			s.byPrediction().Ascend(visit)
		case userOrder:
			s.ascendOrder(e.Backfill, visit)
		default:
			s.waitFCFS.Ascend(visit)
		}
		for _, k := range s.cands {
			if s.free == 0 {
				break
			}
			if k.nd.nodes == 0 && k.nd.cores > s.free || k.nd.nodes*k.nd.cores > s.free || !s.placeNow(k) {
				continue
			}
			if s.now+k.p <= shadow && (!e.EstimateSafe || s.now+k.e <= shadow) || s.keepsHolder(h, k) {
				s.startJob(k, true)
				continue
			}
			s.freeShares(k)
		}
		return
	}
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
	a := &s.shadowAv
	a.copyFrom(&m.free)
	s.want = n.nodes
	if n.nodes == 0 {
		s.want = n.cores
	}
	s.have = 0
	for i := range m.kind {
		s.have += m.gain(a, i, n)
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
			i := int(r.alloc[k].node)
			g := m.gain(a, i, n)
			m.apply(a, &r.alloc[k], &r.nd, 1)
			s.have += m.gain(a, i, n) - g
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
	have := s.have
	for i := range k.alloc {
		node := int(k.alloc[i].node)
		g := m.gain(a, node, &h.nd)
		m.apply(a, &k.alloc[i], &k.nd, -1)
		have += m.gain(a, node, &h.nd) - g
	}
	if have >= s.want {
		s.have = have
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
	n := &j.nd
	return swf.Demand{Nodes: n.nodes, Cores: n.cores, Memory: n.mem, GPUs: n.gpus,
		GPUModels: n.models, Named: n.named, Exclusive: n.excl}
}
