package sched

// schedule runs scheduling passes until no observer has submitted or
// cancelled a job during the last one. Re-entrant calls only mark it dirty.
func (s *Sim) schedule() {
	if s.inPass {
		s.dirty = true
		return
	}
	s.inPass = true
	for {
		s.dirty = false
		s.pass()
		if !s.dirty {
			break
		}
	}
	s.inPass = false
}

// pass is one scheduling pass (§2.2): start holders while they fit,
// then give the holder a reservation and backfill around it.
func (s *Sim) pass() {
	switch s.cfg.Policy {
	case ConservativePolicy:
		s.scheduleConservative()
		return
	case LXFWPolicy:
		s.computePriorities()
	}
	for {
		h := s.holder()
		if h == nil {
			return
		}
		if h.n > s.free {
			if s.cfg.Policy != FCFSPolicy {
				s.backfill(h)
			}
			return
		}
		s.startJob(h, false)
	}
}

// holder is the waiting job that gets the reservation.
func (s *Sim) holder() *job {
	var h *job
	switch s.cfg.Policy {
	case SJFPolicy:
		h, _ = s.waitSJ.Min()
	case LXFWPolicy:
		s.waitFCFS.Ascend(func(j *job) bool {
			if h == nil || j.prio > h.prio {
				h = j
			}
			return true
		})
	default:
		h, _ = s.waitFCFS.Min()
	}
	return h
}

// shadow returns the holder's reservation (the predicted end at which
// enough processors accumulate) and the extra processors then (§2.2 step 3;
// ties in predicted end ordered by start then ID, A2).
func (s *Sim) shadow(n int64) (shadow, extra int64) {
	avail := s.free
	shadow = never
	s.run.Ascend(func(r *job) bool {
		avail += r.n
		if avail >= n {
			shadow, extra = r.predEnd(), avail-n
			return false
		}
		return true
	})
	return shadow, extra
}

// backfill starts other waiting jobs that do not delay h (§2.2 step 4).
func (s *Sim) backfill(h *job) {
	shadow, extra := s.shadow(h.n)
	s.reserve(h, shadow)
	if s.free == 0 {
		return
	}
	s.buf = s.buf[:0]
	free := s.free
	visit := func(k *job) bool {
		if k == h || k.n > free {
			return true
		}
		viaTime := s.now+k.p <= shadow && (!s.cfg.EstimateSafeBackfill || s.now+k.e <= shadow)
		switch {
		case viaTime:
		case k.n <= extra:
			extra -= k.n
		default:
			return true
		}
		free -= k.n
		s.buf = append(s.buf, k)
		return free > 0
	}
	switch {
	case s.cfg.Policy == LXFWPolicy:
		s.ascendPriority(visit)
	case s.cfg.Backfill == BackfillSJBF || s.cfg.Policy == SJFPolicy:
		s.waitSJ.Ascend(visit)
	default:
		s.waitFCFS.Ascend(visit)
	}
	for _, k := range s.buf {
		s.startJob(k, true)
	}
}

// reserve records the holder's reservation for the predictability metrics.
func (s *Sim) reserve(h *job, at int64) {
	if h.res == at {
		return
	}
	h.res = at
	if h.firstRes < 0 {
		h.firstRes = at
	}
	for _, o := range s.obs {
		o.OnReservation(s.now, &h.j, at)
	}
}
