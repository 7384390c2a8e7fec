package karnak

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/qbets/ibl"
)

// snapshotEvery is the interval of the simulated queue snapshots that
// produce queued-job experiences (Karnak's were "several minutes" apart,
// §3; the same 5 minutes as qbets/replay scores IBL with).
const snapshotEvery = 300

// system is the state of one monitored machine: its jobs, its queues, the
// two IBL experience bases (not yet queued, queued) and, per queue, the
// QBETS predictor. All of it is a function of the event sequence (and,
// for a predictor restored from a saved state, of the events that state
// was saved after), so a restart that re-applies the stored events
// rebuilds it exactly.
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
	// queuesAll is the service's count of the queues of all its
	// systems (Service.queueCount), kept as queues are declared: the
	// form reads it instead of visiting every system (locationChoices).
	queuesAll *atomic.Int64
	jobs      map[int64]*job
	all       history   // the all_jobs pseudo-queue
	sums      summaries // the queues' last summaries (stats.go)

	fresh    []int64 // submitted since the last snapshot
	fcFresh  []int64 // submitted since the last recording of forecasts (forecast.go)
	nextSnap int64
	clock    int64  // time of the last event
	gen      uint64 // bumped by every applied event (cache key)
	last     Event  // the last event applied

	// What the store must keep for a restart (retain.go): the submit
	// sequence numbers of the experiences in each IBL base, hourly marks
	// of the event sequence, the last event's sequence number, and each
	// queue's saved QBETS state after a restart.
	nqSubs, qSubs seqRing
	marks         []mark
	lastSeq       int64
	saved         map[string]savedQueue
	qcfg          qbets.Config // of every queue's predictor
	logf          func(string, ...any)
	internals     *internalLog // the service's (failed)
	ignore        string       // Config.ignore

	// sim, when set, is the simulated clock of a trace replay; otherwise
	// "now" is the service clock.
	sim *simClock
	// fc is the forward-simulation forecast and its calibration
	// (forecast.go); nil when Config.MaxForecastJobs turns it off.
	fc *forecaster
	// retired is set when Drop or Rewind replaces the system: a request
	// that looked it up before answers from it, but keeps nothing of it
	// in the service's caches (predCache.put, queueCharts), which the
	// repair has emptied of it and which would otherwise hold it, and
	// everything it holds, for ever.
	retired atomic.Bool
}

type job struct {
	ibl.Job
	start  int64 // -1 while waiting
	inNQ   []ibl.Value
	inQ    []ibl.Value
	snapAt int64
	subSeq int64 // store sequence number of the submit (retain.go)
	// The scheduler's expected start of the job, read at slurmAt (0:
	// none; "estimate" events of the job, slurm.go).
	slurmStart, slurmAt int64
	// priority is the scheduler's priority of the waiting job as the
	// feed last sent it (0: none), which orders the forecast's queue.
	priority int64
	// gpus is the job's GPUs in thousandths (Event.GPUs), shown with
	// the waiting jobs.
	gpus int64
	// The forecast recorded for the calibration (forecast.go): at fcAt
	// (0: none) the job was forecast to wait fcWait more seconds, from
	// what the stored events from fcFrom on hold.
	fcAt, fcWait, fcFrom int64
}

type queue struct {
	name              string
	decl              Record // its first stored declaration: carries the saved QBETS state (retain.go)
	maxCores, maxWall int64
	running, waiting  int
	usedCores         int64
	hist              history
	// pred is the queue's QBETS predictor, answering every pair of
	// Config.Levels. It has learned from the queue's arrivals and starts
	// from feedFrom on; the earlier ones are in the state it was restored
	// from (a restart from a pruned store), and lastFed is the sequence
	// number of the last event it learned from.
	pred              *qbets.Predictor
	feedFrom, lastFed int64
	// slurm is the scheduler's latest estimate per probed job shape
	// ("estimate" events, slurm.go).
	slurm slurmEstimates
}

// savedQueue is a queue's QBETS state as its declaration's Record
// carries it: the predictor's saved state (nil: none, an empty
// predictor) and the first event fed after it.
type savedQueue struct {
	feed  int64
	state []byte
}

// newQueue declares a queue at its first stored declaration decl,
// restoring its predictor from the state saved on it (decl.State and
// decl.Feed), if any. A state
// that cannot be restored (the Levels or History changed since it was
// saved) is logged, and the predictor learns from the stored events of
// the queue alone.
func (s *system) newQueue(decl Record) (*queue, error) {
	p, err := qbets.New(s.qcfg)
	if err != nil {
		return nil, err
	}
	q := &queue{name: decl.Event.Queue, decl: decl, pred: p, feedFrom: decl.Feed}
	if decl.State != nil {
		if err := p.UnmarshalBinary(decl.State); err != nil {
			s.logf("system %q queue %q: the saved QBETS state is not restored (%v); its predictor learns from the stored events only", s.name, q.name, err)
			if p, err = qbets.New(s.qcfg); err != nil {
				return nil, err
			}
			q.pred, q.feedFrom = p, 0
			q.decl.Feed, q.decl.State = 0, nil // the next pruning saves a new one
		}
	}
	return q, nil
}

// learns reports whether the queue's predictor learns from the event
// seq (an arrival or a start): not when its saved state already holds
// it. Events come in time order per system, so starts come in order, as
// qbets requires.
func (q *queue) learns(seq int64) bool {
	if seq < q.feedFrom {
		return false
	}
	q.lastFed = seq
	return true
}

// newSystem returns an empty system with o's settings (o has its
// defaults), numbering its libraries' errors in internals (failed).
func newSystem(name string, o *Config, internals *internalLog) (*system, error) {
	n := o.neighborsFor(name)
	nq, err := ibl.New(ibl.Config{Features: ibl.NotQueuedFeatures(), N: n, MaxSize: o.baseSize})
	if err != nil {
		return nil, err
	}
	qd, err := ibl.New(ibl.Config{Features: ibl.QueuedFeatures(), N: n, MaxSize: o.baseSize})
	if err != nil {
		return nil, err
	}
	s := &system{name: name, feat: new(ibl.System), notQueued: nq, queued: qd,
		queues: map[string]*queue{}, jobs: map[int64]*job{}, nextSnap: -1,
		nqSubs: newSeqRing(o.baseSize), qSubs: newSeqRing(o.baseSize),
		saved: map[string]savedQueue{}, qcfg: qbetsConfig(o), logf: o.Logf, internals: internals, ignore: o.ignore}
	if o.MaxForecastJobs > 0 {
		if s.fc, err = newForecaster(o.MaxForecastJobs, min(fcWindow, o.baseSize)); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// failed is the reason a part of a prediction (what: "no forecast", "no
// IBL estimate") gives for err, an error of the library it called (the
// forecast's simulation, the IBL search). Every such error is the
// service's bug, not the client's: a snapshot the simulation refuses, a
// query of the wrong shape. Its text, the library's words about the
// service's state and types ("forecast: bad snapshot: running job 17 has
// no start ≤ now (submit …, wait …)"), reached every client verbatim,
// which could act on none of it. The reason is numbered as an internal
// error is (Service.internal), and the cause logged under the number.
func (s *system) failed(what string, err error) string {
	n := s.internals.log(s.logf, fmt.Errorf("system %q: %s: %w", s.name, what, err))
	return fmt.Sprintf("%s: internal error %d (its operator's log has the cause under this number)", what, n)
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
	if last := v.lastEvent(); e.Time < last && e.Kind != "estimate" { // estimates: out of band (slurm.go)
		back := "events must arrive in time order"
		if o != nil && o.MaxBackstep > 0 {
			back = fmt.Sprintf("at most %d s earlier is accepted (%s)", o.MaxBackstep, setting("MaxBackstep"))
		}
		return fmt.Errorf("time: %d is before the last event of %q (%d); %s", e.Time, name, last, back)
	}
	known, started := v.job(e.Job)
	switch e.Kind {
	case "queue":
		if _, ok := v.queueMax(e.Queue); !ok && o != nil && v.queueCount() >= o.MaxQueues {
			return fmt.Errorf("queue: %q would be queue %d of %q, at most %d (%s)", e.Queue, v.queueCount()+1, name, o.MaxQueues, setting("MaxQueues"))
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
			return fmt.Errorf("job: %d would be live job %d of %q (submitted, not ended), at most %d (%s)", e.Job, v.liveJobs()+1, name, o.MaxLiveJobs, setting("MaxLiveJobs"))
		}
	case "estimate":
		if e.Job != 0 {
			if !known || started {
				return fmt.Errorf("job: %d is not waiting on %q", e.Job, name)
			}
			break
		}
		maxCores, ok := v.queueMax(e.Queue)
		if !ok {
			return fmt.Errorf("queue: %q is not declared on system %q (send a queue event first)", e.Queue, name)
		}
		if e.Cores > maxCores {
			return fmt.Errorf("cores: %d exceeds queue %q's maximum %d", e.Cores, e.Queue, maxCores)
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
// (of the service, without a store). The caller holds mu, and has
// recorded the forecasts e made due (applyEvent).
func (s *system) apply(e *Event, seq int64) error {
	// A live event on a system whose replay has ended (the replay's own
	// events come while it runs) makes it a system fed live, as after a
	// restart without the replay: its clock is the service's again, not
	// the replay's, which stands at the log's last event, before this one.
	// An estimate too, though it moves no clock: it is a live feed's (a
	// trace has none), and it was taken while the system stayed a
	// replay's, its status saying so (TestReplayEndedEstimateMakesLive).
	if s.sim != nil && s.sim.state() == "ended" {
		s.sim = nil
	}
	if e.Kind == "estimate" {
		s.gen++ // the predictions that show it change
		s.applyEstimate(e)
		return nil
	}
	if s.nextSnap < 0 {
		s.nextSnap = e.Time - e.Time%snapshotEvery + snapshotEvery
	}
	// (The jobs submitted at the last instant were forecast before e,
	// when it made that due: applyEvent, forecast.go.)
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
			sv := s.saved[e.Queue]
			delete(s.saved, e.Queue) // read once: the state may be large
			var err error
			if q, err = s.newQueue(Record{Seq: seq, Event: *e, Feed: sv.feed, State: sv.state}); err != nil {
				return err
			}
			s.queues[e.Queue] = q
			if s.queuesAll != nil {
				s.queuesAll.Add(1)
			}
		}
		q.maxCores, q.maxWall = e.Cores, e.WallTime
	case "submit":
		ij := ibl.Job{ID: e.Job, Queue: e.Queue, User: e.User, Project: e.Project, Name: e.Name,
			Cores: e.Cores, ReqTime: e.WallTime, Submit: e.Time}
		j := &job{Job: ij, start: -1, inNQ: s.feat.NotQueued(ij, e.Time), subSeq: seq, priority: e.Priority, gpus: e.GPUs}
		if err := s.feat.Submit(ij); err != nil {
			return err
		}
		s.jobs[e.Job] = j
		s.fresh = append(s.fresh, e.Job)
		if s.fc != nil {
			s.fcFresh = append(s.fcFresh, e.Job)
		}
		q := s.queues[e.Queue]
		q.waiting++
		if q.learns(seq) {
			if err := q.pred.Submit(e.Time); err != nil {
				return err
			}
		}
	case "start":
		j := s.jobs[e.Job]
		if err := s.feat.Start(e.Job, e.Time); err != nil {
			return err
		}
		j.start = e.Time
		s.forecastStarted(j, e.Time)
		q := s.queues[j.Queue]
		q.waiting--
		q.running++
		q.usedCores += j.Cores
		wait := e.Time - j.Submit
		rec := record{at: e.Time, cores: j.Cores, req: j.ReqTime, dur: wait}
		q.hist.started = q.hist.started.add(rec)
		s.all.started = s.all.started.add(rec)
		if q.learns(seq) {
			o := qbets.Observation{Submit: j.Submit, Start: e.Time, Nodes: int(j.Cores), Walltime: j.ReqTime}
			if err := q.pred.Observe(o); err != nil {
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
		s.forecastEnded(j, e.Time)
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
