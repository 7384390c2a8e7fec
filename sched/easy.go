package sched

import (
	"cmp"
	"fmt"
	"slices"
)

// Order is an order of the waiting queue: the plug point of EASYScheduler
// for the job that gets the reservation (Queue) and the order of
// backfilling (Backfill), as btree's LessFunc or Kubernetes' QueueSort.
// Less reports whether waiting job a goes before waiting job b at time
// now; it must be a strict weak order, and jobs it leaves unordered keep
// their arrival order. Name names the order in reports.
//
// The built-ins ByArrival, ByPrediction and ByLXFW take fast paths of
// their own (an Order nil is ByArrival); any other Order costs a scan of
// the waiting queue per reservation and a stable sort of it per
// backfilling, O(q log q) for q waiting jobs.
type Order interface {
	Less(now int64, a, b *Job) bool
	Name() string
}

// order is a built-in Order.
type order int

// The built-in orders.
const (
	// ByArrival is first come, first served. The default.
	ByArrival order = iota
	// ByPrediction is ascending current prediction, ties by arrival order
	// (S14): shortest job first.
	ByPrediction
	// ByLXFW is descending LXF&W priority (w+e)/e + 0.02·w, w the wait and
	// e the estimate in hours (Ch.3 §3.10, S31), recomputed at every pass;
	// ties by arrival order. The priorities change with the wait, so a
	// pass computes every waiting job's, O(q) for q waiting jobs, and
	// sorts those that may backfill (no larger than the free processors):
	// a run costs the sum of the queue's lengths over its passes, quadratic
	// in the log when the queue grows with it (a load above 1).
	ByLXFW

	userOrder order = -1 // not a built-in
)

// Less implements Order.
func (o order) Less(now int64, a, b *Job) bool {
	switch o {
	case ByPrediction:
		return lessShort(a, b)
	case ByLXFW:
		if pa, pb := lxfwPriority(now, a), lxfwPriority(now, b); pa != pb {
			return pa > pb
		}
	}
	return a.seq < b.seq
}

// Name implements Order.
func (o order) Name() string {
	switch o {
	case ByArrival:
		return "arrival"
	case ByPrediction:
		return "prediction"
	case ByLXFW:
		return "LXF&W"
	}
	return fmt.Sprintf("order(%d)", int(o))
}

// kindOf returns the built-in order o is, or userOrder.
func kindOf(o Order) order {
	switch o := o.(type) {
	case nil:
		return ByArrival
	case order:
		return o
	}
	return userOrder
}

// EASYScheduler is aggressive backfilling with one reservation (§2.2):
// while the first waiting job in Queue order fits, it starts; the first
// one that does not fit holds a reservation at the shadow time, and the
// other waiting jobs, visited in Backfill order, start if they end by the
// shadow (by their prediction) or fit in the extra processors. The zero
// value is vanilla EASY; EASYScheduler{Backfill: ByPrediction} is SJBF
// (EASY++'s order), {Queue: ByPrediction, Backfill: ByPrediction} is SJF,
// {Queue: ByLXFW, Backfill: ByLXFW} is LXF&W; a user's Order plugs in the
// same way.
type EASYScheduler struct {
	Queue, Backfill Order
	// EstimateSafe admits a backfill by its time only if the job's
	// user-estimated end is also before the shadow, so a reservation made
	// with predictions is never violated (§4.3, §6.5).
	EstimateSafe bool
}

// Validate reports an unknown built-in order.
func (e EASYScheduler) Validate() error {
	for _, o := range []Order{e.Queue, e.Backfill} {
		if k, ok := o.(order); ok && (k < ByArrival || k > ByLXFW) {
			return fmt.Errorf("sched: unknown order %d", k)
		}
	}
	return nil
}

// Name is "EASY", or "EASY(queue=…,backfill=…)" with the orders' names,
// "+estimate-safe" with EstimateSafe.
func (e EASYScheduler) Name() string {
	name := "EASY"
	if q, b := kindOf(e.Queue), kindOf(e.Backfill); q != ByArrival || b != ByArrival {
		name = fmt.Sprintf("EASY(queue=%s,backfill=%s)", orderName(e.Queue), orderName(e.Backfill))
	}
	if e.EstimateSafe {
		name += "+estimate-safe"
	}
	return name
}

func orderName(o Order) string {
	if o == nil {
		return ByArrival.Name()
	}
	return o.Name()
}

// Schedule implements Scheduler.
func (e EASYScheduler) Schedule(p *Pass) {
	if !p.over {
		p.s.easyPass(&e, kindOf(e.Queue), kindOf(e.Backfill))
	}
}

// fcfsScheduler starts waiting jobs in arrival order while the first one
// fits, and never backfills.
type fcfsScheduler struct{}

// Name implements the optional name of a Scheduler.
func (fcfsScheduler) Name() string { return "FCFS" }

// Schedule implements Scheduler.
func (fcfsScheduler) Schedule(p *Pass) {
	if p.over {
		return
	}
	s := p.s
	for h, _ := s.waitFCFS.Min(); h != nil && s.placeNow(h); h, _ = s.waitFCFS.Min() {
		s.startJob(h, false)
	}
}

// easyPass is one EASY pass (§2.2): start holders while they fit, then
// give the holder a reservation and backfill around it. q and b are the
// kinds of e's orders (kindOf), found once by New for the Sim's own; e by
// pointer, not copied at each pass (KTH-SP2's EASY run: 151.5 M → 150.9 M
// instructions).
func (s *Sim) easyPass(e *EASYScheduler, q, b order) {
	var h *Job // the holder: LXF&W's is found by the walk that computes the priorities
	if q == ByLXFW || b == ByLXFW {
		if top := s.computePriorities(); q == ByLXFW {
			h = top
		}
	}
	if s.m != nil {
		s.easyNodesPass(*e, q, b)
		return
	}
	if m := &s.memo; m.ok && m.epoch == s.epoch && q == ByArrival && (b == ByArrival || b == ByPrediction) &&
		m.b == b && m.safe == e.EstimateSafe {
		// Only arrivals since the last pass: it rejected every job that
		// was waiting then, and nothing has made one of them fit.
		if h, _ := s.waitFCFS.Min(); h == m.holder && s.free == m.free {
			if b == ByPrediction {
				s.backfillShort(h, *e, m.shadow, m.extra, m.next)
			} else {
				s.backfillFrom(h, *e, b, m.shadow, m.extra, m.next)
			}
			return
		}
	}
	for ; ; h = nil {
		if h == nil {
			if q == ByArrival { // (holder's default case, inline: 28 instructions a call, 0.6% of LANL-CM5's run)
				h, _ = s.waitFCFS.Min()
			} else {
				h = s.holder(q, e.Queue)
			}
		}
		if h == nil {
			return
		}
		if h.n > s.free {
			shadow, extra := s.shadow(h.n)
			if h.res != shadow {
				// a waiting job's reservation changed: conservative
				// backfilling's memo (Sim.qepoch) holds it as a slot when
				// a Scheduler runs both
				s.qepoch++
			}
			e0 := s.epoch
			s.reserve(h, shadow)
			stale := s.epoch != e0
			if b == ByPrediction { // (sjbf.go)
				s.backfillShort(h, *e, shadow, extra, 0)
			} else {
				s.backfillFrom(h, *e, b, shadow, extra, 0)
			}
			if stale {
				// an observer's cancellation at the reservation (a running
				// job's frees processors): the shadow may be stale, and
				// the memo would keep the holder waiting
				s.memo.ok = false
			}
			return
		}
		s.startJob(h, false)
	}
}

// holder is the waiting job that gets the reservation: the first in
// order o, whose kind is k.
func (s *Sim) holder(k order, o Order) *Job {
	var h *Job
	switch k {
	case ByPrediction:
		h, _ = s.byPrediction().Min()
	case ByLXFW:
		s.waitFCFS.Ascend(func(j *Job) bool {
			if h == nil || j.prio > h.prio {
				h = j
			}
			return true
		})
	case userOrder:
		s.waitFCFS.Ascend(func(j *Job) bool {
			if h == nil || o.Less(s.now, j, h) {
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
// ties in predicted end ordered by start then ID, S2; with ShadowTies the
// other jobs ending at the shadow add to extra).
func (s *Sim) shadow(n int64) (shadow, extra int64) {
	// The running set's chunks walked here rather than through Ascend's
	// call per job.
	avail := s.free
	for ci, c := range s.run.chunks {
		for i, r := range c {
			if avail += r.n; avail < n {
				continue
			}
			shadow, extra = r.predEnd(), avail-n
			if s.cfg.ShadowTies { // the other jobs ending at the shadow
				s.run.ascendFrom(ci, i+1, func(r *Job) bool {
					if r.predEnd() != shadow {
						return false
					}
					extra += r.n
					return true
				})
			}
			return shadow, extra
		}
	}
	return never, 0
}

// easyMemo is what the last EASY pass left: when the next pass finds that
// only arrivals happened since (no start, end, correction, cancellation or
// re-prediction: the same epoch), the same holder and free processors, it
// has the same shadow and extra processors, and every job that waited then
// still fails both backfilling tests (the clock only moved forward), so
// only the new arrivals need a look. The memo holds for FCFS holders and
// FCFS or SJBF backfilling.
type easyMemo struct {
	ok            bool
	b             order // the backfilling order (the holder's is ByArrival)
	safe          bool  // EstimateSafe
	epoch         uint64
	holder        *Job
	free          int64
	shadow, extra int64
	next          int64 // the first arrival (seq) the pass did not see
}

// backfillFrom starts other waiting jobs that do not delay h (§2.2 step
// 4), given the shadow and extra processors, among the jobs that arrived
// at or after seq from (0: all).
func (s *Sim) backfillFrom(h *Job, e EASYScheduler, b order, shadow, extra, from int64) {
	s.buf = s.buf[:0]
	free := s.free
	// A job started by its time that ends exactly at the shadow may join
	// the tie there and change the next pass's extra processors: no memo.
	// Nor when one predicted to end by the shadow takes extra processors
	// (EstimateSafe, its estimate past the shadow): the next pass counts
	// them free at the shadow, the memo's extra would not.
	tie := false
	// visit takes k's processors if k may start now, and reports whether
	// the walk goes on (processors are left). It is visitBackfill's
	// callback itself: a wrapper would cost a call per waiting job.
	visit := func(k *Job) bool {
		if k == h || k.n > free {
			return true
		}
		viaTime := s.now+k.p <= shadow && (!e.EstimateSafe || s.now+k.e <= shadow)
		switch {
		case viaTime:
			tie = tie || s.now+k.p == shadow
		case k.n <= extra:
			tie = tie || s.now+k.p <= shadow
			extra -= k.n
		default:
			return true
		}
		free -= k.n
		s.buf = append(s.buf, k)
		return free > 0
	}
	switch {
	case free <= 0:
	case b == ByArrival:
		// The default order walks the queue's slice itself, not a call
		// of visit per waiting job (nothing leaves the queue during the
		// walk), by blocks of the queue (fifo.blk): a block whose jobs
		// are all too large, or all too large for the extra processors
		// and too long to end by the shadow (by both of its corners), is
		// skipped. A re-prediction may shorten a waiting job's
		// prediction below its block's bound: no skipping with one
		// (propag).
		q := &s.waitFCFS
		i := q.head
		if from > 0 {
			for i = len(q.items); i > q.head && (q.items[i-1] == nil || q.items[i-1].seq >= from); i-- {
			}
		}
	walk:
		for i < len(q.items) {
			// (i as unsigned: a shift, where an int's division by the
			// block took five instructions and its remainder six)
			bi := uint(i) / fifoBlock
			end := min(int(bi+1)*fifoBlock, len(q.items))
			bd := &q.blk[bi]
			if !s.propag && bd.small.shut(s.now, free, shadow, extra) && bd.large.shut(s.now, free, shadow, extra) {
				i = end
				continue
			}
			// The block's jobs left waiting, if the walk sees them all,
			// split at the free processors now: at a pass with as many
			// free, the small jobs' corner passes only if one of them
			// can start. The holder counts (visit rejects it): by
			// another Queue order than arrival, it may backfill at a
			// later pass (TestEASYWalkFormerHolderBackfills).
			split := free + 1
			sn, sp, ln, lp := noJobs.n, noJobs.p, noJobs.n, noJobs.p
			whole := uint(i)%fifoBlock == 0
			for ; i < end; i++ {
				k := q.items[i]
				if k == nil {
					continue
				}
				if k.n <= free && (s.now+k.p <= shadow || k.n <= extra) {
					// (visit's first tests, inline: most jobs fail them,
					// and a call each was a third of the walk)
					started := len(s.buf)
					more := visit(k)
					if len(s.buf) != started {
						if !more {
							break walk
						}
						continue
					}
				}
				if k.n < split {
					sn, sp = min(sn, k.n), min(sp, k.p)
				} else {
					ln, lp = min(ln, k.n), min(lp, k.p)
				}
			}
			if whole {
				*bd = bound{split, corner{sn, sp}, corner{ln, lp}}
			}
		}
	default:
		// a job larger than the free processors, or than the extra ones
		// and too long to end by the shadow, is refused by visit at
		// every point of the walk (free and extra only fall)
		free0, extra0 := free, extra
		s.visitBackfill(e, b, from, visit, func(k *Job) bool {
			return k.n > free0 || s.now+k.p > shadow && k.n > extra0
		})
	}
	seen, epoch := s.startBackfills(s.buf, false)
	// Field by field: a literal is built on the stack and copied whole
	// through the write barrier's bulk path (about 50 instructions a
	// pass, 1% of an EASY run).
	m := &s.memo
	m.ok, m.b, m.safe, m.epoch, m.holder = !tie, b, e.EstimateSafe, epoch, h
	m.free, m.shadow, m.extra, m.next = s.free, shadow, extra, seen
}

// startBackfills starts the jobs a backfilling walk chose (jobs, in
// order; as backfilled, or as each job's backfill field says if own),
// but those an observer cancelled while the others started (their
// shares, placed by the walk on nodes, go back). It returns what the pass's memo
// stands for: the jobs seen (before the arrivals an observer makes during
// the starts) and the epoch after these starts alone (an observer's
// cancellation changes it once more, so the memo, whose free processors
// and extra ones assumed the cancelled job started, is not used).
func (s *Sim) startBackfills(jobs []*Job, own bool) (seen int64, epoch uint64) {
	seen, epoch = s.seq, s.epoch
	for _, k := range jobs {
		if k.state != waiting {
			if s.m != nil {
				s.freeShares(k)
			}
			continue
		}
		s.startJob(k, !own || k.backfill)
		epoch++ // (startJob's)
	}
	return seen, epoch
}

// visitBackfill visits the waiting jobs in backfilling order b (e's
// Backfill), or only those that arrived at or after seq from (> 0), in
// arrival order or by prediction. refused (nil: none) says of a job that
// visit would refuse it, doing nothing, wherever in the walk it came: the
// LXF&W order leaves those out before it sorts.
func (s *Sim) visitBackfill(e EASYScheduler, b order, from int64, visit, refused func(*Job) bool) {
	switch {
	case from > 0:
		s.visitNew(from, b == ByPrediction, visit)
	case b == ByLXFW:
		s.ascendPriority(visit, refused)
	case b == ByPrediction:
		s.byPrediction().Ascend(visit)
	case b == userOrder:
		s.ascendOrder(e.Backfill, visit)
	default:
		s.waitFCFS.Ascend(visit)
	}
}

// visitNew visits the waiting jobs that arrived at or after seq from, in
// arrival order or by prediction.
func (s *Sim) visitNew(from int64, byPrediction bool, visit func(*Job) bool) {
	q := &s.waitFCFS
	i := len(q.items)
	for i > q.head && (q.items[i-1] == nil || q.items[i-1].seq >= from) {
		i--
	}
	fresh := s.fresh[:0]
	for _, j := range q.items[i:] {
		if j != nil {
			fresh = append(fresh, j)
		}
	}
	if byPrediction {
		sortShort(fresh)
	}
	for _, j := range fresh {
		if !visit(j) {
			break
		}
	}
	s.fresh = fresh[:0]
}

// reserve records a job's reservation for the predictability metrics.
func (s *Sim) reserve(h *Job, at int64) {
	if h.res == at {
		return
	}
	h.res = at
	if h.firstRes < 0 {
		h.firstRes = at
	}
	for _, o := range s.resObs {
		o.OnReservation(s.now, &h.j, at)
	}
}

// computePriorities sets every waiting job's LXF&W priority at now and
// returns the first of the highest (holder's ByLXFW), in one walk.
func (s *Sim) computePriorities() *Job {
	var h *Job
	q := &s.waitFCFS
	for _, j := range q.items[q.head:] {
		if j == nil {
			continue
		}
		j.prio = lxfwPriority(s.now, j)
		if h == nil || j.prio > h.prio {
			h = j
		}
	}
	return h
}

// lxfwPriority is LXF&W's priority of waiting job j at now.
func lxfwPriority(now int64, j *Job) float64 {
	w := float64(now-j.j.Submit) / 3600
	e := float64(max(j.e, 1)) / 3600
	return (w+e)/e + 0.02*w
}

// ascendOrder visits waiting jobs in a user's order o, ties by arrival.
func (s *Sim) ascendOrder(o Order, visit func(*Job) bool) {
	all := s.fresh[:0] // a user order has no memo, so visitNew's scratch is free
	s.waitFCFS.Ascend(func(j *Job) bool { all = append(all, j); return true })
	defer func() { s.fresh = all[:0] }()
	slices.SortStableFunc(all, func(a, b *Job) int {
		switch {
		case o.Less(s.now, a, b):
			return -1
		case o.Less(s.now, b, a):
			return 1
		}
		return 0
	})
	for _, j := range all {
		if !visit(j) {
			return
		}
	}
}

// ascendPriority visits waiting jobs by descending priority (ties by
// arrival), but those refused (nil: none) says visit refuses.
//
// Only the jobs visit may take are sorted: on an overloaded log (offered
// load 1.8, BenchmarkOverloaded) the queue grows with the log and the
// sort of all of it at every pass made LXF&W quadratic in the log with a
// sort's constant (10.4 G instructions for 20 k jobs against 1.2 G now:
// callgrind, CHANGELOG); most waiting jobs are larger than the few free
// processors. One unstable sort with the arrival as the tie's order is
// the stable sort's order (TestLXFWMatchesGenericRapid).
func (s *Sim) ascendPriority(visit, refused func(*Job) bool) {
	all := s.fresh[:0] // the LXF&W pass has no memo, so visitNew's scratch is free
	q := &s.waitFCFS
	for _, j := range q.items[q.head:] {
		if j != nil && (refused == nil || !refused(j)) {
			all = append(all, j)
		}
	}
	defer func() { s.fresh = all[:0] }()
	s.sorted += int64(len(all))
	slices.SortFunc(all, func(a, b *Job) int {
		switch {
		case a.prio > b.prio:
			return -1
		case a.prio < b.prio:
			return 1
		}
		return cmp.Compare(a.seq, b.seq)
	})
	for _, j := range all {
		if !visit(j) {
			return
		}
	}
}
