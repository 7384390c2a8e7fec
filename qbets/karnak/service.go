package karnak

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/netip"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// Service is the prediction and statistics service: the systems, the
// event store, and the clock. It is safe for concurrent use.
type Service struct {
	mu      sync.RWMutex // guards systems and names (not the systems)
	systems map[string]*system
	// names is the systems' names in order, kept as systems come and go
	// (rarely), so that a page of the list of systems costs its own
	// systems, not a copy and a sort of all of them (systemsPage).
	names []string
	// queueCount is the number of queues of the systems (each system
	// adds its own as they are declared; a drop takes its away), so
	// that the form knows whether it is compact without visiting every
	// system (locationChoices).
	queueCount atomic.Int64
	store      Store
	// now is the service clock for systems without a simulated clock.
	now   func() int64
	cache predCache
	// charts records what the queue charts draw as events are ingested
	// (chart_record.go) and caches the drawn charts.
	charts charts
	ready  atomic.Bool // Load is done
	// ingestMu serializes writers so that the store's order is the order
	// in which events are applied; it also guards the fields below.
	ingestMu sync.Mutex
	opt      Config
	prunes   map[string]*pruneState
	batches  batchLog
	tokens   map[[32]byte]*Token
	limiter  *limiter
	// Who a request is from (ratelimit.go): Config.TrustedProxies and
	// Config.ClientHeader.
	proxies      []netip.Prefix
	clientHeader string
	// raised counts the events stored at their system's clock, having
	// come up to MaxBackstep before it (/karnak/stats).
	raised atomic.Int64
	// endsEarly counts the ends sent at a time before their job's start
	// (as stored): within MaxBackstep they are stored at the clock, so
	// the job ran 0 s or more than the feed said; a contradiction of the
	// feed's, or a start raised to the clock before it. Not refused: a
	// refused end leaves its job live for good, and a feed whose clock
	// ran ahead raises real starts (/karnak/stats).
	endsEarly atomic.Int64
	// queuesCleared counts the stored starts and ends whose queue is not
	// a name, found in the store by Load and cleared in memory (reapply;
	// /karnak/stats). They stay in the store until pruning deletes them
	// with their ended jobs' events (retain.go), so a load finds those
	// still stored again and the count is the store's, never the
	// restarts' sum (it can only fall from one load to the next): Load
	// does not rewrite them, since a Store need not take a Rewrite while
	// it scans, and one after the scan would hold every such record in
	// memory (an old feed may have sent a queue with each start and end).
	queuesCleared atomic.Int64
	// internals numbers the internal errors and logs their causes.
	internals internalLog
	// hooks are the points where a test plays a concurrent writer,
	// deterministically; they are nil but in tests. A field, not a
	// package variable: a hook set by one test is no other service's,
	// and a test sets them before its service runs anything.
	hooks testHooks
}

// testHooks, each nil but in tests, are called at the points of the
// writers' lock holds that their races are about.
type testHooks struct {
	// ingestChecked is called by ingestBatch once it has checked who
	// feeds the batch's systems (fedBy), before it stores: ingestMu is
	// held (TestLiveCheckRace).
	ingestChecked func()
	// claimRead is called by claimReplay once it has read the system's
	// last event (its resume point), before it sets the replay's clock:
	// ingestMu is held (TestReplayClaimRace).
	claimRead func()
	// replayClaimed is called by ReplayEvents once it has claimed its
	// system, before its first batch.
	replayClaimed func()
}

// pruneState is what the service knows of a system's last pruning.
type pruneState struct {
	since int   // events stored since
	kept  int   // events before its cut it kept (the next one reads them again)
	cut   int64 // its cut
}

// New returns a service over st (nil: a new MemStore) with the settings
// of cfg. It does no work: call Load to rebuild the state from the store;
// until then the handler answers 503 and Ingest fails.
func New(st Store, cfg Config) (*Service, error) {
	o, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if st == nil {
		st = &MemStore{}
	}
	// The clock is clamped to the events' range (0–2^40 s), so that it
	// plus MaxSkew cannot wrap around (TestClockClampedToEventRange).
	wall := o.Now
	now := func() int64 { return min(max(wall(), 0), maxSpan) }
	s := &Service{systems: map[string]*system{}, store: st, now: now, opt: o, prunes: map[string]*pruneState{},
		tokens: map[[32]byte]*Token{}}
	s.cache.off = o.NoCache
	s.batches.init(maxBatches)
	for i := range o.Tokens {
		s.tokens[sha256.Sum256([]byte(o.Tokens[i].Secret))] = &o.Tokens[i]
	}
	if o.Rate > 0 {
		s.limiter = newLimiter(o.Rate, o.Burst, maxClients)
	}
	s.proxies, _ = parseProxies(o.TrustedProxies) // validated
	s.clientHeader = http.CanonicalHeaderKey(o.ClientHeader)
	return s, nil
}

// Load rebuilds every system by re-applying the stored events in order,
// then opens the service. It is called once; ctx stops it early.
func (s *Service) Load(ctx context.Context) error {
	s.ingestMu.Lock()
	defer s.ingestMu.Unlock()
	if s.ready.Load() {
		return errors.New("karnak: Load called twice")
	}
	n := 0
	err := s.store.Scan("", 0, func(r *Record) error {
		if n++; n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		cleared, err := s.reapply(r)
		if err != nil {
			return fmt.Errorf("stored event %d: %w", r.Seq, err)
		}
		if cleared {
			s.queuesCleared.Add(1)
		}
		// The stored events count as not yet pruned: a service restarted
		// more often than PruneEvery events still prunes.
		s.pruneState(r.Event.System).since++
		return nil
	})
	if err != nil {
		return err
	}
	s.ready.Store(true)
	return nil
}

// reapply applies a stored record again (Load, Rewind), checking it as a
// new event would be (a store edited by hand may hold anything), except
// for the clock: its time may be anything the store accepted, and for
// the queue of a start or an end, which it reports cleared.
func (s *Service) reapply(r *Record) (cleared bool, err error) {
	e := &r.Event
	// Until 2026-11-30 the queue of a start or an end was not checked,
	// and a store may hold any string there: a start or an end does not
	// use it (the job's queue is its submission's), so one that is not a
	// name is cleared, and counted (/karnak/stats), rather than the whole
	// store refused at the restart of an upgraded service.
	if (e.Kind == KindStart || e.Kind == KindEnd) && e.Queue != "" && !validName(e.Queue) {
		e.Queue, cleared = "", true
	}
	if err := e.check(); err != nil {
		return cleared, err
	}
	sys, err := s.systemFor(e.System, true)
	if err != nil {
		return cleared, err
	}
	if err := checkState(e, sys.name, sys, &s.opt); err != nil {
		return cleared, err
	}
	if e.Kind == "queue" && (r.Feed > 0 || r.State != nil) && sys.queues[e.Queue] == nil {
		sys.saved[e.Queue] = savedQueue{feed: r.Feed, state: r.State}
	}
	if r.Batch != "" {
		s.batches.add(r.Batch, r.Digest, e.System)
	}
	return cleared, sys.applyEvent(e, r.Seq)
}

// systemFor returns the named system, made if new (an error beyond
// MaxSystems unless stored, which is true while rebuilding).
func (s *Service) systemFor(name string, stored bool) (*system, error) {
	s.mu.RLock()
	sys := s.systems[name]
	s.mu.RUnlock()
	if sys != nil {
		return sys, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if sys = s.systems[name]; sys == nil {
		if !stored && len(s.systems) >= s.opt.MaxSystems {
			return nil, &Error{Code: http.StatusForbidden, Message: fmt.Sprintf("system: %q would be system %d, at most %d (%s)", name, len(s.systems)+1, s.opt.MaxSystems, setting("MaxSystems"))}
		}
		var err error
		if sys, err = newSystem(name, &s.opt, &s.internals); err != nil {
			return nil, err
		}
		sys.queuesAll = &s.queueCount
		s.systems[name] = sys
		i, _ := slices.BinarySearch(s.names, name)
		s.names = slices.Insert(s.names, i, name)
	}
	return sys, nil
}

func (s *Service) lookup(name string) (*system, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	sys := s.systems[name]
	if sys == nil {
		return nil, notFound("system: %q is not a known system", clip(name))
	}
	return sys, nil
}

// systemNames is the systems' names in order (a copy).
func (s *Service) systemNames() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.names)
}

// systemsPage is at most limit systems in name order: the first ones,
// those after the name after (when not ""), or the last ones before the
// name before (when not ""), a name being a place in the order whether
// or not a system has it; with the index of the first in the whole
// list, and its length. It costs the page, not the list (names).
//
// An empty page past the list's end (a stale link: its systems dropped
// since, or a name after the last) gives lastAfter, the place the list's
// last page starts after ("" when that page is the first), so that the
// page can link back to it (listPage.prev).
func (s *Service) systemsPage(after, before string, limit int) (page []*system, first, total int, lastAfter string) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	total = len(s.names)
	var end int
	switch {
	case after != "":
		i, found := slices.BinarySearch(s.names, after)
		if found {
			i++
		}
		first, end = i, min(i+limit, total)
	case before != "":
		end, _ = slices.BinarySearch(s.names, before)
		first = max(end-limit, 0)
	default:
		end = min(limit, total)
	}
	page = make([]*system, 0, end-first)
	for _, n := range s.names[first:end] {
		page = append(page, s.systems[n])
	}
	if first >= total && total > limit && limit > 0 {
		lastAfter = s.names[total-limit-1]
	}
	return page, first, total, lastAfter
}

// Ingest stores and applies a batch of events without a batch id; see
// IngestBatch.
func (s *Service) Ingest(evs []Event) error {
	_, err := s.IngestBatch("", evs)
	return err
}

// Ack acknowledges a stored batch: its id (if the client gave one) and
// how many events it held. A retried batch gets the same Ack.
type Ack struct {
	Batch  string `json:"batch,omitempty" xml:"batch,omitempty"`
	Events int    `json:"events" xml:"events"`
}

// IngestBatch validates a batch of events, stores it in one transaction,
// and only then applies it: an event is acknowledged (the Ack returned
// with a nil error) only once it is stored. The batch is all or nothing;
// the error names the index and the field of the first bad event.
//
// batch, when not "", is the client's id of the batch (at most 128
// bytes): a batch with the id of one already stored is acknowledged
// again with the same Ack and stores nothing, if it holds the same
// events (a retry after a lost acknowledgement), and is a conflict
// otherwise if that batch touched one of this one's systems: an id is
// its writer's within its systems, so the feeds of other systems cannot
// claim it. The service remembers 65,536 batches, when full forgetting
// the oldest of the system (of a batch's first event) with the most, so
// that one writer's new ids do not evict another's (a restart rebuilds
// them from the store, while their events are kept).
//
// A batch with an event of a system a trace replay is feeding (Replay)
// is refused, an *Error with Code 409 (http.StatusConflict), until the
// replay has ended or been stopped (its status then says so): its events
// would interleave with the trace's, and the replay, stopped by the first
// batch out of order, would stop with them. The HTTP feed answers the
// same 409 (TestIngestBatchReplaying). A batch already stored, retried,
// is acknowledged again all the same.
func (s *Service) IngestBatch(batch string, evs []Event) (Ack, error) {
	return s.ingestBatch(batch, evs, nil)
}

// ingestBatch is IngestBatch fed by replay (a replay's clock; nil: a
// live feed, the HTTP one or a caller of IngestBatch). It refuses a batch
// with an event of a system another feeds (fedBy) under ingestMu, under
// which ReplayEvents claims its system: checked before it, a live event
// stored after the replay's claim had read the system's last event, and
// the replay's next batch, out of order, was refused and stopped it (and
// qserve with it; TestLiveCheckRace).
func (s *Service) ingestBatch(batch string, evs []Event, replay *simClock) (Ack, error) {
	if !s.ready.Load() {
		return Ack{}, errNotReady
	}
	if len(batch) > maxBatchID || !utf8.ValidString(batch) {
		return Ack{}, badRequest("batch: %d bytes, want a UTF-8 id of at most %d", len(batch), maxBatchID)
	}
	if len(evs) == 0 {
		return Ack{}, badRequest("events: none")
	}
	if len(evs) > maxEvents {
		return Ack{}, &Error{Code: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("events: %d in one batch, at most %d", len(evs), maxEvents)}
	}
	digest := digestOf(evs)
	ack := Ack{Batch: batch, Events: len(evs)}
	s.ingestMu.Lock()
	defer s.ingestMu.Unlock()
	// A batch already stored is acknowledged again before who feeds its
	// systems is checked: it stores nothing, and a retry whose first
	// acknowledgement was lost got a 409 while a replay fed its system,
	// which a feed counts as refused for good (TestRetryWhileReplaying).
	if batch != "" {
		var systems map[string]bool // of evs, made at the first id found
		ours := func(sys string) bool {
			if systems == nil {
				systems = map[string]bool{}
				for i := range evs {
					systems[evs[i].System] = true
				}
			}
			return systems[sys]
		}
		switch stored, conflict := s.batches.lookup(batch, digest, ours); {
		case stored:
			return ack, nil
		case conflict:
			return Ack{}, &Error{Code: http.StatusConflict, Message: fmt.Sprintf("batch: %q was already stored with other events", batch)}
		}
	}
	if err := s.fedBy(evs, replay); err != nil {
		return Ack{}, err
	}
	if s.hooks.ingestChecked != nil {
		s.hooks.ingestChecked()
	}
	// Validate the whole batch against a dry run of the job bookkeeping
	// it implies, so a bad event late in the batch rejects all of it.
	now := s.now()
	if replay != nil {
		// A replay's events come due on its own clock, which may run
		// past the wall clock (a trace of jobs after today, or any at a
		// speed that outruns it): held to the wall clock's skew, its
		// first such event stopped the replay, and qserve with it
		// (TestReplayPastWallClock).
		now = max(now, replay.now())
	}
	for i := range evs {
		if err := evs[i].check(); err != nil {
			return Ack{}, badRequest("events[%d].%v", i, err)
		}
		if evs[i].Time > now+s.opt.MaxSkew {
			return Ack{}, badRequest("events[%d].time: %d is %s ahead of the service's clock (%d); at most %s (%s)",
				i, evs[i].Time, hms(evs[i].Time-now), now, hms(s.opt.MaxSkew), setting("MaxSkew"))
		}
	}
	evs = slices.Clone(evs) // dryRun raises times within MaxBackstep
	raised, early, err := s.dryRun(evs)
	if err != nil {
		return Ack{}, err
	}
	recs := make([]Record, len(evs))
	for i := range evs {
		recs[i] = Record{Batch: batch, Event: evs[i]}
		if batch != "" {
			recs[i].Digest = digest
		}
	}
	if err := s.store.Append(recs); err != nil {
		return Ack{}, s.internal(err)
	}
	s.raised.Add(int64(raised))
	s.endsEarly.Add(int64(early))
	if batch != "" {
		for i := range evs {
			s.batches.add(batch, digest, evs[i].System)
		}
	}
	defer s.maybePrune(evs)
	for i := range recs {
		sys, err := s.systemFor(recs[i].Event.System, true)
		if err != nil {
			return Ack{}, s.internal(err)
		}
		err = sys.applyEvent(&recs[i].Event, recs[i].Seq)
		if err != nil {
			// Validated above; reaching here is a bug, and the stored
			// event will fail the same way at the next start.
			return Ack{}, s.internal(fmt.Errorf("events[%d]: %w", i, err))
		}
		s.observeForCharts(sys, &recs[i].Event)
	}
	return ack, nil
}

// maybePrune prunes the store of each system of evs (retain.go) once
// Config.PruneEvery events of it have been stored since the last time,
// and as many as the last pruning kept before its cut: a pruning reads
// every stored event before the cut, the ones kept the last time again,
// so waiting for as many new events keeps the reading O(1) per event
// (amortized). The events are acknowledged
// whatever happens here, so an error is logged, not returned: the store
// then keeps more than it needs until the next pruning. The caller holds
// ingestMu, so no event is applied meanwhile.
func (s *Service) maybePrune(evs []Event) {
	if s.store == nil || s.opt.PruneEvery < 0 {
		return
	}
	for i := range evs {
		name := evs[i].System
		ps := s.pruneState(name)
		wait := max(s.opt.PruneEvery, ps.kept)
		if s.opt.eager {
			wait = s.opt.PruneEvery
		}
		if ps.since++; ps.since < wait {
			continue
		}
		ps.since = 0
		sys, err := s.lookup(name)
		if err != nil {
			continue
		}
		sys.mu.RLock()
		cut := sys.retainFrom()
		sys.mu.RUnlock()
		if cut <= ps.cut {
			continue // nothing new to prune
		}
		t0 := time.Now()
		deleted, scanned, err := s.prune(sys, cut)
		if err != nil {
			// Numbered, clipped and at most logBurst lines a minute, as
			// every store error (internalLog): a store that fails at
			// every pruning wrote its whole error each time.
			s.internals.log(s.opt.Logf, fmt.Errorf("pruning the store of %q: %w", name, err))
			continue
		}
		ps.cut, ps.kept = cut, scanned-deleted
		if deleted > 0 {
			s.opt.Logf("pruned %d of the %d events of %q before event %d in %v", deleted, scanned, name, cut, time.Since(t0).Round(time.Millisecond))
		}
	}
}

func (s *Service) pruneState(system string) *pruneState {
	ps := s.prunes[system]
	if ps == nil {
		ps = &pruneState{}
		s.prunes[system] = ps
	}
	return ps
}

// dryRun checks the batch in order against each system's current state
// as amended by the batch's own earlier events (declared queues, jobs
// submitted, started or ended), without changing anything but the times
// of events within MaxBackstep before their system's clock, which it
// raises to that clock, and counts, with the ends sent before their job's
// start (early).
func (s *Service) dryRun(evs []Event) (raised, early int, err error) {
	views := map[string]*batchView{}
	s.mu.RLock()
	nsys := len(s.systems)
	s.mu.RUnlock()
	for i := range evs {
		e := &evs[i]
		v := views[e.System]
		if v == nil {
			v = &batchView{queues: map[string]int64{}, jobs: map[int64]jobState{}}
			s.mu.RLock()
			sys := s.systems[e.System]
			s.mu.RUnlock()
			if sys != nil {
				// Copy what the batch may touch: the clock and the queue
				// limits, and the jobs it names.
				sys.mu.RLock()
				v.clock, v.live = sys.clock, len(sys.jobs)
				for n, q := range sys.queues {
					v.queues[n] = q.maxCores
				}
				for _, f := range evs[i:] {
					if f.System != e.System || f.Kind == "queue" {
						continue
					}
					if j := sys.jobs[f.Job]; j != nil {
						v.jobs[f.Job] = jobState{known: true, started: j.start >= 0, start: j.start}
					}
				}
				sys.mu.RUnlock()
			} else {
				if nsys++; nsys > s.opt.MaxSystems {
					return 0, 0, &Error{Code: http.StatusForbidden, Message: fmt.Sprintf("events[%d].system: %q would be system %d, at most %d (%s)", i, e.System, nsys, s.opt.MaxSystems, setting("MaxSystems"))}
				}
				v.clock = -1
			}
			views[e.System] = v
		}
		if j := v.jobs[e.Job]; e.Kind == "end" && j.started && e.Time < j.start {
			early++ // (an end further back is refused below)
		}
		if e.Time < v.clock && v.clock-e.Time <= s.opt.MaxBackstep && e.Kind != "estimate" {
			e.Time = v.clock
			raised++
		}
		if err := checkState(e, e.System, v, &s.opt); err != nil {
			return 0, 0, badRequest("events[%d].%v", i, err)
		}
		if e.Kind != "estimate" { // out of band (slurm.go)
			v.clock = e.Time
		}
		switch e.Kind {
		case "queue":
			v.queues[e.Queue] = e.Cores
		case "submit":
			v.jobs[e.Job] = jobState{known: true}
			v.live++
		case "start":
			v.jobs[e.Job] = jobState{known: true, started: true, start: e.Time}
		case "end":
			delete(v.jobs, e.Job)
			v.live--
		}
	}
	return raised, early, nil
}

// batchView is a system as a batch's earlier events would leave it.
type batchView struct {
	clock  int64 // -1: a new system
	live   int
	queues map[string]int64 // max cores
	jobs   map[int64]jobState
}

type jobState struct {
	known, started bool
	start          int64 // started: its time as stored
}

func (v *batchView) lastEvent() int64 { return v.clock }

func (v *batchView) liveJobs() int { return v.live }

func (v *batchView) queueCount() int { return len(v.queues) }

func (v *batchView) queueMax(name string) (int64, bool) {
	c, ok := v.queues[name]
	return c, ok
}

func (v *batchView) job(id int64) (known, started bool) {
	j := v.jobs[id]
	return j.known, j.started
}

// fedBy refuses (409) a batch with an event of a system a trace replay
// other than replay (nil: none, a live feed) is feeding. A system's
// events come from one feeder at a time: live events interleaved with a
// replay's times, and the replay, stopped by its first batch out of
// order, stopped qserve. It is the one rule of the HTTP feed and of
// IngestBatch (which interleaved); the caller holds ingestMu, under
// which a replay claims its system.
func (s *Service) fedBy(evs []Event, replay *simClock) error {
	for i := range evs {
		if i > 0 && evs[i].System == evs[i-1].System {
			continue // (a batch is mostly of one system)
		}
		if c := s.replayOf(evs[i].System); c != nil && c != replay {
			return &Error{Code: http.StatusConflict, Message: fmt.Sprintf("events[%d].system: %q is being fed by a trace replay; send live events for it once the replay has ended (its status then says so), or for another system", i, evs[i].System)}
		}
	}
	return nil
}

// replaying reports whether a trace replay is feeding the named system:
// one that has ended (fed its log's last event) or was stopped feeds it
// no more, and the system then takes live events and repairs as any
// other (TestReplayEndedTakesLive).
func (s *Service) replaying(name string) bool {
	return s.replayOf(name) != nil
}

// replayOf is the clock of the trace replay feeding the named system,
// nil if none is (replaying).
func (s *Service) replayOf(name string) *simClock {
	s.mu.RLock()
	sys := s.systems[name]
	s.mu.RUnlock()
	if sys == nil {
		return nil
	}
	sys.mu.RLock()
	defer sys.mu.RUnlock()
	if sys.sim != nil && sys.sim.state() == "running" {
		return sys.sim
	}
	return nil
}

// clockOf is "now" on a system: its simulated clock during a replay, else
// the service clock. The caller holds sys.mu.
func (s *Service) clockOf(sys *system) int64 {
	if sys.sim != nil {
		return sys.sim.now()
	}
	return max(s.now(), sys.clock)
}

// Last is the last stored event of a system, with its sequence number;
// false when the system is unknown.
func (s *Service) Last(system string) (Record, bool) {
	s.mu.RLock()
	sys := s.systems[system]
	s.mu.RUnlock()
	if sys == nil {
		return Record{}, false
	}
	sys.mu.RLock()
	defer sys.mu.RUnlock()
	if sys.nextSnap < 0 {
		return Record{}, false
	}
	return Record{Seq: sys.lastSeq, Event: sys.last}, true
}

// remove takes system old, named system, out of the service's state
// (not out of the store): its name, its queues' count, its cached
// predictions and charts, its pruning and its batch ids. The caller
// holds ingestMu.
func (s *Service) remove(system string, old *system) {
	s.mu.Lock()
	delete(s.systems, system)
	if i, found := slices.BinarySearch(s.names, system); found {
		s.names = slices.Delete(s.names, i, i+1)
	}
	s.mu.Unlock()
	// (ingestMu is held: no event adds a queue to old meanwhile.)
	old.mu.Lock()
	old.queuesAll.Add(-int64(len(old.queues)))
	old.queuesAll = nil
	old.mu.Unlock()
	old.retired.Store(true) // before the drops: a request still holding old keeps nothing of it after them
	s.cache.drop(old)
	s.charts.drop(old)
	delete(s.prunes, system)
	s.batches.forget(system)
}

// Drop deletes a system: its stored events and its state. A system
// poisoned by bad events (say, times a year ahead) is repaired by
// dropping it and feeding it again, or by Rewind.
func (s *Service) Drop(system string) error {
	return s.repair(system, -1)
}

// Rewind deletes a system's stored events later than t (Unix seconds)
// and rebuilds its state from the ones left, as if the later events had
// never been sent. The system's clock goes back to its last kept event.
func (s *Service) Rewind(system string, t int64) error {
	if t < 0 {
		return badRequest("time: %d, want ≥ 0", t)
	}
	return s.repair(system, t)
}

// repair drops the events of system after t (all when t < 0) and
// rebuilds it from the rest.
func (s *Service) repair(system string, t int64) error {
	if !s.ready.Load() {
		return errNotReady
	}
	s.ingestMu.Lock()
	defer s.ingestMu.Unlock()
	s.mu.RLock()
	old := s.systems[system]
	s.mu.RUnlock()
	if old == nil {
		return notFound("system: %q is not a known system", clip(system))
	}
	if s.replaying(system) {
		// (Its events would interleave with the rebuilt state's; once it
		// has ended, the repair is taken.)
		return &Error{Code: http.StatusConflict, Message: fmt.Sprintf("system: %q is being fed by a trace replay; repair it once the replay has ended (its status then says so) or has been stopped", system)}
	}
	var del []int64
	var saved []Record               // queue declarations with a saved QBETS state
	firstDel := int64(math.MaxInt64) // the first deleted event a predictor may have learned from
	err := s.store.Scan(system, 0, func(r *Record) error {
		if t < 0 || r.Event.Time > t {
			del = append(del, r.Seq)
			if r.Event.Kind != "estimate" { // out of band: its time is not its place in the log
				firstDel = min(firstDel, r.Seq)
			}
		} else if r.Feed > 0 || r.State != nil {
			saved = append(saved, *r)
		}
		return nil
	})
	if err != nil {
		return s.internal(err)
	}
	// A saved state that has learned from a deleted event (times, hence
	// sequence numbers, only grow, estimates aside) is dropped: the predictor then learns
	// from the events left, and forgets what the state held before them.
	var put []Record
	for _, r := range saved {
		if r.Feed > firstDel {
			r.Feed, r.State = 0, nil
			put = append(put, r)
		}
	}
	if err := s.store.Rewrite(system, del, put); err != nil {
		return s.internal(err)
	}
	s.remove(system, old)
	if t < 0 {
		return nil
	}
	// Rebuild from what is left; the old state answers no more requests.
	return s.internal(s.store.Scan(system, 0, func(r *Record) error {
		if _, err := s.reapply(r); err != nil { // counted by Load
			return fmt.Errorf("stored event %d: %w", r.Seq, err)
		}
		s.pruneState(system).since++
		return nil
	}))
}
