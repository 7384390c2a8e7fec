package sched

// scheduleConservative is conservative backfilling with compression
// (Mu'alem & Feitelson): every waiting job holds a reservation in the
// free-processor profile. At each pass the profile is rebuilt from the
// running jobs and all current reservations; then, in arrival order, each
// job gives up its reservation and takes the earliest slot where it fits for
// its prediction without touching anyone else's (never later than its old
// one, unless a running job outlived its prediction), and starts if that
// slot is now. New arrivals are placed after all earlier arrivals. A job
// started while an earlier arrival still waits counts as backfilled.
// Cost per pass: O(q · profile) for q waiting jobs.
func (s *Sim) scheduleConservative() {
	if s.waitFCFS.Len() == 0 {
		return
	}
	s.prof.Reset(s.now, s.free)
	s.run.Ascend(func(r *job) bool { s.prof.Release(max(r.predEnd(), s.now+1), r.n); return true })
	s.buf = s.buf[:0]
	s.waitFCFS.Ascend(func(j *job) bool {
		s.buf = append(s.buf, j)
		if j.res >= 0 {
			j.res = max(j.res, s.now)
			s.prof.Allocate(j.res, max(j.p, 1), j.n)
		}
		return true
	})
	var start []*job
	blocked := false
	for _, j := range s.buf {
		d := max(j.p, 1)
		if j.res >= 0 {
			s.prof.Allocate(j.res, d, -j.n)
		}
		t, _ := s.prof.Fit(j.n, d, s.now)
		s.prof.Allocate(t, d, j.n)
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
