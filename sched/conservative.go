package sched

// scheduleConservative re-plans every waiting job in arrival order against
// the free-processor profile (conservative backfilling with compression):
// each gets the earliest slot where it fits for its prediction without
// touching the reservations of jobs that arrived before it, and starts if
// that slot is now. A job started while an earlier arrival still waits is
// counted as backfilled. Cost per pass: O(q · profile) for q waiting jobs.
func (s *Sim) scheduleConservative() {
	if s.waitFCFS.Len() == 0 {
		return
	}
	s.prof.reset(s.now, s.free, func(yield func(t, n int64)) {
		s.run.Ascend(func(r *job) bool { yield(r.predEnd(), r.n); return true })
	})
	s.buf = s.buf[:0]
	s.waitFCFS.Ascend(func(j *job) bool { s.buf = append(s.buf, j); return true })
	var start []*job
	blocked := false
	for _, j := range s.buf {
		d := max(j.p, 1)
		t := s.prof.fit(j.n, d)
		s.prof.allocate(t, d, j.n)
		if t == s.now {
			j.backfill = blocked
			start = append(start, j)
			continue
		}
		blocked = true
		s.reserve(j, t)
	}
	for _, j := range start {
		s.startJob(j, j.backfill)
	}
}
