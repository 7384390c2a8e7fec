package karnak

import (
	"fmt"
	"sync"

	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/qbets/ibl"
)

// snapshotEvery is the interval of the simulated queue snapshots that
// produce queued-job experiences (Karnak's were "several minutes" apart,
// §3; the same 5 minutes as qbets/replay scores IBL with).
const snapshotEvery = 300

// system is the state of one monitored machine: its jobs, its queues, the
// two IBL experience bases (not yet queued, queued) and, per queue, the
// QBETS history. All of it is a function of the event sequence, so a
// restart that re-applies the stored events rebuilds it exactly.
//
// mu guards everything; requests take it for reading, events for
// writing.
type system struct {
	name string
	mu   sync.RWMutex

	feat      *ibl.System
	notQueued *ibl.Base
	queued    *ibl.Base
	queues    map[string]*queue
	jobs      map[int64]*job
	all       history // the all_jobs pseudo-queue

	fresh    []int64 // submitted since the last snapshot
	nextSnap int64
	clock    int64  // time of the last event
	gen      uint64 // bumped by every applied event (cache key)
	last     Event  // the last event applied

	// What the store must keep for a restart (retain.go): the submit
	// sequence numbers of the experiences in each IBL base, hourly marks
	// of the event sequence, the last event's sequence number, the
	// feed cap, and each queue's first feed item after a restart.
	nqSubs, qSubs seqRing
	marks         []mark
	lastSeq       int64
	feedCap       int
	feedFrom      map[string]int64
	ignore        string // Config.ignore

	// sim, when set, is the simulated clock of a trace replay; otherwise
	// "now" is the service clock.
	sim *simClock
}

type job struct {
	ibl.Job
	start  int64 // -1 while waiting
	inNQ   []ibl.Value
	inQ    []ibl.Value
	snapAt int64
	subSeq int64 // store sequence number of the submit (retain.go)
}

type queue struct {
	name              string
	decl              Record // its first stored declaration: carries the feed's start (retain.go)
	maxCores, maxWall int64
	running, waiting  int
	usedCores         int64
	hist              history
	// feed is the arrivals and starts, in time order, that every QBETS
	// predictor of the queue has learned from, to build one for a new
	// quantile/confidence from the same history. It keeps the last
	// feedCap to feedCap·2 items (see learn). Events before feedFrom
	// (a restart from a pruned store) are not fed.
	feed     []feedItem
	feedCap  int
	feedFrom int64
	preds    map[qbKey]*qbets.Predictor
	// shadows, one per predictor, have learned from feed[feedCap:]: the
	// half the next halving keeps, whose predictors they become then (nil
	// while the feed is shorter than feedCap).
	shadows map[qbKey]*qbets.Predictor
	// halved: the feed has dropped items (here, or before the restart
	// from a pruned store): only then may a pruning find jobs no feed
	// needs (retain.go).
	halved bool
}

// feedItem is a QBETS arrival at submit, or a start. The kind is a flag,
// not a zero time: events at Unix time 0 are valid (a trace without a
// start time in its header begins there).
type feedItem struct {
	arrival bool
	submit  int64
	obs     qbets.Observation
	seq     int64 // the event's store sequence number
}

// maxFeed bounds a queue's feed by default (Config.History): a service
// that runs for years must not keep every job it has seen, nor every
// event in its store. 2^20 items (about 500,000 jobs; 56 bytes an item,
// so 56–112 MB per queue, the feed holding 2^20–2^21) is years of a busy
// queue.
const maxFeed = 1 << 20

// learn appends f to the feed and feeds it to the predictors. The feed
// drops its oldest half when it reaches twice its cap (amortized O(1) per
// event), and the predictors forget it too: each is replaced by its
// shadow, which has learned from the kept half alone. So every predictor
// is a function of the feed, which a restart from the pruned store
// rebuilds exactly (retain.go), and forgetting costs no rebuild (2^20
// items took 12 s) while requests wait for the lock; it costs feeding the
// shadows in the second half of each cycle.
func (q *queue) learn(f feedItem) error {
	if len(q.feed) >= 2*q.feedCap {
		q.feed = append(q.feed[:0], q.feed[len(q.feed)-q.feedCap:]...)
		q.preds, q.shadows = q.shadows, nil // made when the feed held feedCap
		q.halved = true
	}
	if len(q.feed) == q.feedCap {
		q.shadows = map[qbKey]*qbets.Predictor{}
		for k := range q.preds {
			p, err := newPredictor(k, nil)
			if err != nil {
				return err
			}
			q.shadows[k] = p
		}
	}
	q.feed = append(q.feed, f)
	for _, p := range q.preds {
		f.feed(p)
	}
	for _, p := range q.shadows {
		f.feed(p)
	}
	return nil
}

func (f *feedItem) feed(p *qbets.Predictor) {
	if f.arrival {
		p.Submit(f.submit)
	} else {
		p.Observe(f.obs)
	}
}

// newPredictor is a predictor for k that has learned from items.
func newPredictor(k qbKey, items []feedItem) (*qbets.Predictor, error) {
	p, err := qbets.New(qbets.Config{Quantile: float64(k.q) / 100, Confidence: float64(k.c) / 100})
	if err != nil {
		return nil, err
	}
	for i := range items {
		items[i].feed(p)
	}
	return p, nil
}

// qbKey selects a QBETS predictor: quantile and confidence in percent.
type qbKey struct{ q, c int }

// maxPredictors bounds the lazily built predictors per queue; beyond it
// the least useful (any but the default) is dropped and rebuilt on demand.
const maxPredictors = 16

// newSystem returns an empty system with o's settings (o has its
// defaults); feedFrom is each queue's first fed event after a restart
// (nil when new).
func newSystem(name string, o *Config, feedFrom map[string]int64) (*system, error) {
	n := o.neighborsFor(name)
	nq, err := ibl.New(ibl.Config{Features: ibl.NotQueuedFeatures, N: n, MaxSize: o.baseSize})
	if err != nil {
		return nil, err
	}
	qd, err := ibl.New(ibl.Config{Features: ibl.QueuedFeatures, N: n, MaxSize: o.baseSize})
	if err != nil {
		return nil, err
	}
	return &system{name: name, feat: ibl.NewSystem(), notQueued: nq, queued: qd,
		queues: map[string]*queue{}, jobs: map[int64]*job{}, nextSnap: -1,
		nqSubs: newSeqRing(o.baseSize), qSubs: newSeqRing(o.baseSize),
		feedCap: o.History, feedFrom: feedFrom, ignore: o.ignore}, nil
}

// stateView is what an event's validity depends on: a system's last
// event time, its declared queues and its jobs. A system is one; Ingest's
// dry run of a batch is another (the system as the batch's earlier events
// would leave it).
type stateView interface {
	lastEvent() int64 // -1: no event yet
	liveJobs() int
	queueCount() int
	queueMax(name string) (cores int64, ok bool)
	job(id int64) (known, started bool)
}

// checkState reports whether e can be applied to the system named name in
// state v, without changing anything, so that a rejected event is never
// stored. The error names the field.
//
// o, when not nil, caps the system's queues and live jobs; a store being
// rebuilt passes nil (what was stored is rebuilt whatever the caps are
// now).
func checkState(e *Event, name string, v stateView, o *Config) error {
	if last := v.lastEvent(); e.Time < last {
		back := "events must arrive in time order"
		if o != nil && o.MaxBackstep > 0 {
			back = fmt.Sprintf("at most %d s earlier is accepted (MaxBackstep)", o.MaxBackstep)
		}
		return fmt.Errorf("time: %d is before the last event of %q (%d); %s", e.Time, name, last, back)
	}
	known, started := v.job(e.Job)
	switch e.Kind {
	case "queue":
		if _, ok := v.queueMax(e.Queue); !ok && o != nil && v.queueCount() >= o.MaxQueues {
			return fmt.Errorf("queue: %q would be queue %d of %q, at most %d (MaxQueues)", e.Queue, v.queueCount()+1, name, o.MaxQueues)
		}
	case "submit":
		maxCores, ok := v.queueMax(e.Queue)
		if !ok {
			return fmt.Errorf("queue: %q is not declared on system %q (send a queue event first)", e.Queue, name)
		}
		if known {
			return fmt.Errorf("job: %d is already known on %q", e.Job, name)
		}
		if e.Cores > maxCores {
			return fmt.Errorf("cores: %d exceeds queue %q's maximum %d", e.Cores, e.Queue, maxCores)
		}
		if o != nil && v.liveJobs() >= o.MaxLiveJobs {
			return fmt.Errorf("job: %d would be live job %d of %q (submitted, not ended), at most %d (MaxLiveJobs)", e.Job, v.liveJobs()+1, name, o.MaxLiveJobs)
		}
	case "start":
		if !known || started {
			return fmt.Errorf("job: %d is not waiting on %q", e.Job, name)
		}
	case "end":
		if !known {
			return fmt.Errorf("job: %d is not known on %q", e.Job, name)
		}
	}
	return nil
}

// The stateView of a system; the caller holds mu.
func (s *system) lastEvent() int64 {
	if s.nextSnap < 0 {
		return -1
	}
	return s.clock
}

func (s *system) liveJobs() int { return len(s.jobs) }

func (s *system) queueCount() int { return len(s.queues) }

func (s *system) queueMax(name string) (int64, bool) {
	if q := s.queues[name]; q != nil {
		return q.maxCores, true
	}
	return 0, false
}

func (s *system) job(id int64) (known, started bool) {
	j := s.jobs[id]
	return j != nil, j != nil && j.start >= 0
}

// apply changes the state by a validated event, the seq-th of the store
// (of the service, without a store). The caller holds mu.
func (s *system) apply(e *Event, seq int64) error {
	if s.nextSnap < 0 {
		s.nextSnap = e.Time - e.Time%snapshotEvery + snapshotEvery
	}
	// A snapshot at t sees every event at times ≤ t. Only the first
	// snapshot after the previous event can find jobs (it takes every
	// fresh one), so the later ones up to e.Time are skipped: the cost
	// is O(1) per event whatever the gap.
	if s.nextSnap < e.Time {
		s.snapshot(s.nextSnap)
		s.nextSnap += (e.Time - s.nextSnap + snapshotEvery - 1) / snapshotEvery * snapshotEvery
	}
	s.clock = e.Time
	s.last = *e
	s.gen++
	s.lastSeq = seq
	s.markEvent(e.Time, seq)
	switch e.Kind {
	case "queue":
		q := s.queues[e.Queue]
		if q == nil {
			q = &queue{name: e.Queue, decl: Record{Seq: seq, Event: *e, Feed: s.feedFrom[e.Queue]}, preds: map[qbKey]*qbets.Predictor{}, feedCap: s.feedCap, feedFrom: s.feedFrom[e.Queue], halved: s.feedFrom[e.Queue] > 0}
			s.queues[e.Queue] = q
			// The default predictor is kept up to date from the start, so
			// the common request never waits for a history replay.
			if _, err := q.predictor(qbKey{defaultQuantile, defaultConfidence}); err != nil {
				return err
			}
		}
		q.maxCores, q.maxWall = e.Cores, e.WallTime
	case "submit":
		ij := ibl.Job{ID: e.Job, Queue: e.Queue, User: e.User, Project: e.Project, Name: e.Name,
			Cores: e.Cores, ReqTime: e.WallTime, Submit: e.Time}
		j := &job{Job: ij, start: -1, inNQ: s.feat.NotQueued(ij, e.Time), subSeq: seq}
		if err := s.feat.Submit(ij); err != nil {
			return err
		}
		s.jobs[e.Job] = j
		s.fresh = append(s.fresh, e.Job)
		q := s.queues[e.Queue]
		q.waiting++
		if seq >= q.feedFrom {
			if err := q.learn(feedItem{arrival: true, submit: e.Time, seq: seq}); err != nil {
				return err
			}
		}
	case "start":
		j := s.jobs[e.Job]
		if err := s.feat.Start(e.Job, e.Time); err != nil {
			return err
		}
		j.start = e.Time
		q := s.queues[j.Queue]
		q.waiting--
		q.running++
		q.usedCores += j.Cores
		wait := e.Time - j.Submit
		rec := record{at: e.Time, cores: j.Cores, req: j.ReqTime, dur: wait}
		q.hist.started = q.hist.started.add(rec)
		s.all.started = s.all.started.add(rec)
		if seq >= q.feedFrom {
			o := qbets.Observation{Submit: j.Submit, Start: e.Time, Nodes: int(j.Cores), Walltime: j.ReqTime}
			if err := q.learn(feedItem{obs: o, seq: seq}); err != nil {
				return err
			}
		}
		if err := s.notQueued.Insert(ibl.Experience{In: j.inNQ, Wait: float64(wait)}); err != nil {
			return err
		}
		s.nqSubs.push(j.subSeq)
		if j.inQ != nil {
			if err := s.queued.Insert(ibl.Experience{In: j.inQ, Wait: float64(e.Time - j.snapAt)}); err != nil {
				return err
			}
			s.qSubs.push(j.subSeq)
		}
		j.inNQ, j.inQ = nil, nil
	case "end":
		j := s.jobs[e.Job]
		if err := s.feat.End(e.Job); err != nil {
			return err
		}
		delete(s.jobs, e.Job)
		q := s.queues[j.Queue]
		if j.start < 0 {
			q.waiting-- // cancelled while waiting: no wait was observed
			break
		}
		q.running--
		q.usedCores -= j.Cores
		rec := record{at: e.Time, cores: j.Cores, req: j.ReqTime, dur: e.Time - j.start}
		q.hist.ended = q.hist.ended.add(rec)
		s.all.ended = s.all.ended.add(rec)
	}
	return nil
}

// snapshot records the Table IV features of every job submitted since the
// previous snapshot and still waiting: Karnak's queued-job experience is
// built from the first snapshot that shows the job (§3 [S]).
func (s *system) snapshot(now int64) {
	for _, id := range s.fresh {
		j := s.jobs[id]
		if j == nil || j.start >= 0 || j.inQ != nil {
			continue
		}
		if q, ok := s.feat.Queued(id, now); ok {
			j.inQ, j.snapAt = q, now
		}
	}
	s.fresh = s.fresh[:0]
}

// predictor returns the queue's QBETS predictor for k, building it from
// the queue's start history on first use. The caller holds mu for
// writing.
func (q *queue) predictor(k qbKey) (*qbets.Predictor, error) {
	if p, ok := q.preds[k]; ok {
		return p, nil
	}
	p, err := newPredictor(k, q.feed)
	if err != nil {
		return nil, err
	}
	if q.shadows != nil {
		sh, err := newPredictor(k, q.feed[q.feedCap:])
		if err != nil {
			return nil, err
		}
		q.shadows[k] = sh
	}
	if len(q.preds) >= maxPredictors {
		for old := range q.preds {
			if old != (qbKey{defaultQuantile, defaultConfidence}) {
				delete(q.preds, old)
				delete(q.shadows, old)
				break
			}
		}
	}
	q.preds[k] = p
	return p, nil
}
