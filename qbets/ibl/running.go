package ibl

import "container/heap"

// The running jobs' part of the Count and Work features at a time now:
// every running job counts, and works for its cores times what remains
// of its requested run time, max(start + req − now, 0) (all of it if it
// starts after now). Summing that over the running jobs at each query
// took O(running) under karnak's write lock at every submit. Instead
// System keeps, of the running jobs whose deadline start + req is after
// its clock (the latest submit or start time it was given), the sums of
// their cores and of their cores times their deadline, per user too, in
// a heap by deadline that drops each job as the clock passes its
// deadline: at any now ≥ the clock, the work is Σ cores × deadline −
// now × Σ cores over those jobs, less the few whose deadline passed
// between the clock and now, which the query finds at the top of the
// heap without changing it (a query only reads: karnak's predictions
// share a read lock). A query at a time before the clock (a job started
// after it) sums the running jobs directly, as always, and so does one
// with 2^23 or more running jobs, past which the sums could wrap.

// runSums are the sums of some running jobs: how many run (all of them),
// and, of those whose deadline is after the clock, their cores and their
// cores times deadline (exact modulo 2^64 and 2^128; below 2^23 jobs
// they are the whole sums).
type runSums struct {
	n, cores uint64
	cd       u128
}

// maxFastRunning is the most running jobs for which the kept sums are
// read: 2^23 jobs of at most 2^40 cores ending before 2^64 s sum below
// 2^127 core-seconds.
const maxFastRunning = 1 << 23

// deadline is when a job started at start stops having requested time
// left; a job that gave no limit has none left from its start.
func deadline(start, req int64) uint64 { return uint64(start) + uint64(max(req, 0)) }

// active is the heap, by deadline, of the running jobs whose deadline is
// after the clock.
type active []*tracked

func (h active) Len() int           { return len(h) }
func (h active) Less(i, j int) bool { return h[i].deadline < h[j].deadline }
func (h active) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].heapAt, h[j].heapAt = i, j
}
func (h *active) Push(x any) {
	t := x.(*tracked)
	t.heapAt = len(*h)
	*h = append(*h, t)
}
func (h *active) Pop() any {
	old := *h
	t := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	t.heapAt = -1
	return t
}

// tick moves the clock to t if t is later, and drops from the sums the
// running jobs whose deadline it passed (each job once: O(log n) amortized).
func (s *System) tick(t int64) {
	s.clock = max(s.clock, t)
	for len(s.active) > 0 && s.active[0].deadline <= uint64(s.clock) {
		s.deactivate(heap.Pop(&s.active).(*tracked))
	}
}

// deactivate takes job j, out of the heap, from the sums of the active jobs.
func (s *System) deactivate(j *tracked) {
	c, cd := uint64(j.Cores), mul(uint64(j.Cores), j.deadline)
	s.run.take(c, cd)
	s.user(j.User).run.take(c, cd)
}

// take takes a job of c cores and c × deadline cd from the active sums.
func (r *runSums) take(c uint64, cd u128) {
	r.cores -= c
	r.cd.sub(cd)
}

// runStart adds job j, started at its start time, to the running sums.
func (s *System) runStart(j *tracked) {
	s.tick(j.start)
	j.deadline, j.heapAt = deadline(j.start, j.ReqTime), -1
	u := s.user(j.User)
	s.run.n++
	u.run.n++
	if j.deadline > uint64(s.clock) {
		heap.Push(&s.active, j)
		c, cd := uint64(j.Cores), mul(uint64(j.Cores), j.deadline)
		s.run.cores += c
		s.run.cd.add(cd)
		u.run.cores += c
		u.run.cd.add(cd)
	}
}

// runEnd takes running job j from the running sums.
func (s *System) runEnd(j *tracked) {
	if j.heapAt >= 0 {
		heap.Remove(&s.active, j.heapAt)
		s.deactivate(j)
	}
	s.run.n--
	s.user(j.User).run.n--
}

// runningAt returns the count and work at now of all running jobs, and of
// user's (zero when user is "").
func (s *System) runningAt(now int64, user string) (all, mine sums) {
	if now < s.clock || len(s.running) >= maxFastRunning {
		return s.runningDirect(now, user)
	}
	r, u := s.run, runSums{}
	if user != "" {
		if uj := s.users[user]; uj != nil {
			u = uj.run
		}
	}
	// The jobs whose deadline passed between the clock and now: the
	// heap's nodes with a deadline ≤ now, found from its root.
	var passed func(i int)
	passed = func(i int) {
		if i >= len(s.active) || s.active[i].deadline > uint64(now) {
			return
		}
		j := s.active[i]
		c, cd := uint64(j.Cores), mul(uint64(j.Cores), j.deadline)
		r.take(c, cd)
		if user != "" && j.User == user {
			u.take(c, cd)
		}
		passed(2*i + 1)
		passed(2*i + 2)
	}
	passed(0)
	at := func(r runSums) sums { // every deadline left is after now
		w := r.cd
		w.sub(mul(uint64(now), r.cores))
		return sums{r.n, w}
	}
	all = at(r)
	if user != "" {
		mine = at(u)
	}
	return all, mine
}

// runningDirect is runningAt summed over the running jobs one by one.
func (s *System) runningDirect(now int64, user string) (all, mine sums) {
	for _, t := range s.running {
		req := max(t.ReqTime, 0) // no limit given: contributes no work
		var ran int64
		if now > t.start { // t.start ≥ 0: no overflow
			ran = now - t.start
		}
		w := sums{1, mul(uint64(t.Cores), uint64(req-min(ran, req)))}
		all.add(w)
		if user != "" && t.User == user {
			mine.add(w)
		}
	}
	return all, mine
}
