package karnak

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
)

// Retention: which stored events a restart needs.
//
// The state is a function of the event log, but only of a recent part of
// it: the IBL bases hold the last baseSize experiences, the statistics the
// last week, and the job table the jobs still alive. The QBETS predictor
// of each queue is saved instead (qbets.Predictor.MarshalBinary), on the
// queue's first stored declaration (Record.State), with the first event
// it has not learned from (Record.Feed): a restart restores it and feeds
// it the later events only, so it needs none of the earlier ones. A
// system's cut is the first event from which a replay rebuilds the IBL
// bases, the statistics and the job table exactly; every later event is
// kept, and of the events before it only
//
//   - the submit and start of each job alive at the cut (submitted before
//     it, not ended before it): the job table and the feature state at
//     the cut (and the submit time of a job whose start a restored
//     predictor learns from);
//   - each queue's declaration in force before the oldest event kept, and
//     the later ones: the queues and their limits.
//
// The cut is the earliest of
//
//   - the submit of every waiting job: its experience, inserted when it
//     starts, has the features of the state at its submission (Table III)
//     and at the first snapshot after it (Table IV), which a replay from
//     the cut rebuilds only for jobs submitted after the cut;
//   - the submit of every experience still in either IBL base, for the
//     same reason (older experiences were evicted, and a replay evicts
//     them again: every base holds the newest experiences, inserted by
//     starts after the cut in the same order; the extra jobs replayed
//     before the cut only add older experiences, evicted in turn);
//   - the first event of the last week (kqueue's widest window; the
//     extra jobs' records are older);
//   - what the forecast's windows need (forecast.go): the submit of each
//     job among the last ended ones its run times learn from, and of each
//     job whose residual is in its calibration or that waits with a
//     forecast made, or, if earlier, the first event the run times of
//     that job's forecast learned from.
//
// The service prunes every Config.PruneEvery events (Service.maybePrune)
// and saves, in the same Store.Rewrite, the state of every predictor that
// learned since its last one: the store keeps the last week, the jobs of
// the last baseSize experiences, the jobs still alive, and one saved
// state per queue (bounded by Config.History).

// seqRing holds the submit sequence numbers of the experiences in an IBL
// base, in the base's FIFO order and with its capacity.
type seqRing struct {
	s    []int64
	next int
}

func newSeqRing(capacity int) seqRing { return seqRing{s: make([]int64, 0, capacity)} }

func (r *seqRing) push(seq int64) {
	if len(r.s) < cap(r.s) {
		r.s = append(r.s, seq)
		return
	}
	r.s[r.next] = seq
	r.next = (r.next + 1) % len(r.s)
}

// min is the oldest submit among the held experiences (start order is not
// submit order), math.MaxInt64 when empty.
func (r *seqRing) min() int64 {
	m := int64(math.MaxInt64)
	for _, s := range r.s {
		m = min(m, s)
	}
	return m
}

// mark is the first event of an hour of a system's clock: every later
// event has a later time and a larger sequence number, so the last mark
// at least a week old bounds the week's events from below.
type mark struct{ time, seq int64 }

// markEvery is the marks' spacing: a cut at most this much earlier than
// needed keeps an hour more of events, and a week needs 168 marks.
const markEvery = 3600

func (s *system) markEvent(t, seq int64) {
	if n := len(s.marks); n == 0 || t/markEvery != s.marks[n-1].time/markEvery {
		s.marks = append(s.marks, mark{t, seq})
	}
	// Forget the marks the week no longer needs (all but the last one
	// at least a week old).
	i := 0
	for i+1 < len(s.marks) && s.marks[i+1].time <= s.clock-week {
		i++
	}
	if i > 0 && 2*i > len(s.marks) {
		s.marks = append(s.marks[:0], s.marks[i:]...)
	}
}

// retainFrom is the system's cut (see above). The caller holds mu.
func (s *system) retainFrom() (cut int64) {
	cut = s.lastSeq + 1
	if s.ignore != "waiting" {
		for _, j := range s.jobs {
			if j.start < 0 {
				cut = min(cut, j.subSeq)
			}
		}
	}
	if s.ignore != "bases" {
		cut = min(cut, s.nqSubs.min(), s.qSubs.min())
	}
	if s.fc != nil && s.ignore != "forecast" {
		cut = min(cut, s.fc.retainFrom())
		for _, j := range s.jobs {
			if j.start < 0 && j.fcAt > 0 { // its forecast, made, is calibrated when it starts
				cut = min(cut, j.fcFrom)
			}
		}
	}
	from := int64(math.MinInt64) // no mark a week old: keep everything
	for _, m := range s.marks {
		if m.time > s.clock-week {
			break
		}
		from = m.seq
	}
	if from == math.MinInt64 && len(s.marks) > 0 {
		from = s.marks[0].seq
	}
	if s.ignore != "week" {
		cut = min(cut, from)
	}
	return cut
}

// saveStates is each queue's saved QBETS state as its first stored
// declaration should carry it: a new one for the queues whose predictor
// learned since its last saved state, the one it has for the others. The
// queues are saved in name order, so that of two that fail the error
// names the first by name, not whichever the map gave first
// (TestSaveStatesErrorFirstByName). The caller holds mu.
func (s *system) saveStates() (map[string]savedQueue, error) {
	out := make(map[string]savedQueue, len(s.queues))
	for _, name := range slices.Sorted(maps.Keys(s.queues)) {
		q := s.queues[name]
		sv := savedQueue{feed: q.decl.Feed, state: q.decl.State}
		if q.lastFed > 0 && q.lastFed >= sv.feed && s.ignore != "state" {
			b, err := q.pred.MarshalBinary()
			if err != nil {
				return nil, fmt.Errorf("saving the QBETS state of queue %q: %w", name, err)
			}
			sv = savedQueue{feed: q.lastFed + 1, state: b}
		}
		out[name] = sv
	}
	return out, nil
}

// storedEvent is an event as the store holds it.
type storedEvent struct {
	seq int64
	ev  Event
}

// keepBefore returns, of a system's stored events before its cut (in
// store order), the sequence numbers to keep (see above): the submit and
// start of the jobs alive at the cut, and the queue declarations in force
// from the oldest kept event on.
func keepBefore(evs []storedEvent) []int64 {
	type life struct{ submit, start int64 }
	keep := map[int64]bool{}
	first := int64(math.MaxInt64)
	alive := map[int64]*life{}
	for _, e := range evs {
		switch e.ev.Kind {
		case "submit":
			alive[e.ev.Job] = &life{submit: e.seq, start: -1}
		case "start":
			if j := alive[e.ev.Job]; j != nil {
				j.start = e.seq
			}
		case "end":
			delete(alive, e.ev.Job)
		}
	}
	for _, j := range alive {
		keep[j.submit] = true
		if j.start >= 0 {
			keep[j.start] = true
		}
		first = min(first, j.submit)
	}
	// Each queue's last declaration before the first kept job event, and
	// every later one (until the cut).
	last := map[string]int64{}
	for _, e := range evs {
		if e.ev.Kind != "queue" {
			continue
		}
		if e.seq < first {
			last[e.ev.Queue] = e.seq
		} else {
			keep[e.seq] = true
		}
	}
	for _, seq := range last {
		keep[seq] = true
	}
	var out []int64
	for _, e := range evs {
		if keep[e.seq] {
			out = append(out, e.seq)
		}
	}
	return out
}

// prune deletes the events of sys before cut that keepBefore does not
// keep and saves the QBETS states (saveStates) on each queue's first
// stored declaration, in one Store.Rewrite: a crash leaves the store
// before or after, both of which a restart rebuilds exactly (Load reads
// the state on the first declaration, which precedes every event of its
// queue). It returns the number of events deleted and the number read
// (the events before the cut). The caller holds ingestMu, so no event is
// applied meanwhile.
func (s *Service) prune(sys *system, cut int64) (deleted, scanned int, err error) {
	var old []storedEvent
	declRecs := map[int64]Record{}
	err = s.store.Scan(sys.name, cut, func(r *Record) error {
		old = append(old, storedEvent{seq: r.Seq, ev: Event{Kind: r.Event.Kind, Job: r.Event.Job, Queue: r.Event.Queue}})
		if r.Event.Kind == "queue" {
			declRecs[r.Seq] = *r
		}
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	keep := keepBefore(old)
	kept := make(map[int64]bool, len(keep))
	for _, k := range keep {
		kept[k] = true
	}
	var del []int64
	firstKept := map[string]Record{} // each queue's first kept declaration before the cut
	for _, e := range old {
		if !kept[e.seq] {
			del = append(del, e.seq)
			continue
		}
		if e.ev.Kind == "queue" {
			if _, ok := firstKept[e.ev.Queue]; !ok {
				firstKept[e.ev.Queue] = declRecs[e.seq]
			}
		}
	}
	if len(del) == 0 {
		return 0, len(old), nil // nothing a predictor learned from goes
	}
	sys.mu.RLock()
	decls := map[string]Record{}
	for name, q := range sys.queues {
		decls[name] = q.decl
	}
	states, err := sys.saveStates()
	sys.mu.RUnlock()
	if err != nil {
		return 0, 0, err
	}
	// Each queue's first stored declaration after the pruning: its first
	// kept one before the cut, else the one it had (after the cut: a
	// queue declared before the cut keeps a declaration), with the state.
	var put []Record
	for name, d := range decls {
		nd := d
		if k, ok := firstKept[name]; ok {
			nd = k
		}
		sv := states[name]
		nd.Feed, nd.State = sv.feed, sv.state
		// A new state has a later Feed than the one it replaces.
		if nd.Seq != d.Seq || nd.Feed != d.Feed {
			put = append(put, nd)
			decls[name] = nd
		}
	}
	// In store order, not the map's: the store is handed the same
	// rewrite for the same state, and a store that fails on one record
	// fails on the same one (TestPruneRewritesInOrder).
	slices.SortFunc(put, func(a, b Record) int { return cmp.Compare(a.Seq, b.Seq) })
	if err := s.store.Rewrite(sys.name, del, put); err != nil {
		return 0, 0, fmt.Errorf("rewriting the store of %q: %w", sys.name, err)
	}
	sys.mu.Lock()
	for name, d := range decls {
		if q := sys.queues[name]; q != nil {
			q.decl = d
		}
	}
	sys.mu.Unlock()
	return len(del), len(old), nil
}
