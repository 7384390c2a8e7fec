package main

import (
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sync"
	"time"
)

// Service is the prediction and statistics service: the systems, the
// event store, and the clock. It is safe for concurrent use.
type Service struct {
	mu      sync.RWMutex // guards systems (the map, not the systems)
	systems map[string]*system
	store   *Store // nil: in memory only
	// now is the service clock for systems without a simulated clock.
	now   func() int64
	cache predCache
	// ingestMu serializes writers so that the store's order is the order
	// in which events are applied; it also guards the fields below.
	ingestMu sync.Mutex
	opt      Options
	seq      int64 // the last event's sequence number, without a store
	// feedFrom is each system's queues' first fed event, from the store.
	feedFrom map[string]map[string]int64
	prunes   map[string]*pruneState
}

// pruneState is what the service knows of a system's last pruning.
type pruneState struct {
	since int              // events stored since
	kept  int              // events before its cut it kept (the next one reads them again)
	cut   int64            // its cut
	feeds map[string]int64 // and the feeds' starts then
}

// NewService opens the default service over a store (nil for memory
// only); see NewServiceWith.
func NewService(st *Store, now func() int64) (*Service, error) {
	return NewServiceWith(st, now, Options{})
}

// NewServiceWith opens the service with options o over a store (nil for
// memory only) and rebuilds every system by re-applying the stored events
// in order.
func NewServiceWith(st *Store, now func() int64, o Options) (*Service, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	if now == nil {
		now = func() int64 { return time.Now().Unix() }
	}
	s := &Service{systems: map[string]*system{}, store: st, now: now, opt: o, prunes: map[string]*pruneState{}}
	if st == nil {
		return s, nil
	}
	if s.feedFrom, err = st.FeedStarts(); err != nil {
		return nil, err
	}
	err = st.Each(func(seq int64, e *Event) error {
		sys, err := s.systemFor(e.System)
		if err != nil {
			return err
		}
		if err := checkState(e, sys.name, sys); err != nil {
			return fmt.Errorf("stored event %+v: %w", *e, err)
		}
		// The stored events count as not yet pruned: a service restarted
		// more often than every PruneEvery events still prunes.
		s.pruneState(e.System).since++
		return sys.apply(e, seq)
	})
	return s, err
}

// httpError carries the status a handler should answer with.
type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return e.msg }

func badRequest(format string, a ...any) error {
	return &httpError{http.StatusBadRequest, fmt.Sprintf(format, a...)}
}

func notFound(format string, a ...any) error {
	return &httpError{http.StatusNotFound, fmt.Sprintf(format, a...)}
}

func statusOf(err error) int {
	var he *httpError
	if errors.As(err, &he) {
		return he.status
	}
	return http.StatusInternalServerError
}

func (s *Service) systemFor(name string) (*system, error) {
	s.mu.RLock()
	sys := s.systems[name]
	s.mu.RUnlock()
	if sys != nil {
		return sys, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if sys = s.systems[name]; sys == nil {
		var err error
		if sys, err = newSystem(name, &s.opt, s.feedFrom[name]); err != nil {
			return nil, err
		}
		s.systems[name] = sys
	}
	return sys, nil
}

func (s *Service) lookup(name string) (*system, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	sys := s.systems[name]
	if sys == nil {
		return nil, notFound("system: %q is not a known system", name)
	}
	return sys, nil
}

func (s *Service) systemNames() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	names := make([]string, 0, len(s.systems))
	for n := range s.systems {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Ingest validates a batch of events, stores it in one transaction, and
// only then applies it: an event is acknowledged (Ingest returns nil)
// only once it is on disk. The batch is all or nothing; the error names
// the index and the field of the first bad event.
func (s *Service) Ingest(evs []Event) error {
	s.ingestMu.Lock()
	defer s.ingestMu.Unlock()
	// Validate the whole batch against a dry run of the job bookkeeping
	// it implies, so a bad event late in the batch rejects all of it.
	for i := range evs {
		if err := evs[i].check(); err != nil {
			return badRequest("events[%d].%v", i, err)
		}
	}
	if err := s.dryRun(evs); err != nil {
		return err
	}
	var seqs []int64
	if s.store != nil {
		var err error
		if seqs, err = s.store.Append(evs); err != nil {
			return err
		}
	} else {
		seqs = make([]int64, len(evs))
		for i := range seqs {
			s.seq++
			seqs[i] = s.seq
		}
	}
	defer s.maybePrune(evs)
	for i := range evs {
		sys, err := s.systemFor(evs[i].System)
		if err != nil {
			return err
		}
		sys.mu.Lock()
		err = sys.apply(&evs[i], seqs[i])
		sys.mu.Unlock()
		if err != nil {
			// Validated above; reaching here is a bug, and the stored
			// event will fail the same way at the next start.
			return fmt.Errorf("events[%d]: %w", i, err)
		}
	}
	return nil
}

// maybePrune prunes the store of each system of evs (retain.go) once
// Options.PruneEvery events of it have been stored since the last time,
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
		cut, feedFrom, prunable := sys.retainFrom()
		sys.mu.RUnlock()
		if !prunable || cut <= ps.cut && maps.Equal(feedFrom, ps.feeds) {
			continue // nothing (new) to prune
		}
		t0 := time.Now()
		deleted, scanned, err := s.store.Prune(name, cut, feedFrom, s.opt.ignore != "feed")
		if err != nil {
			s.opt.Logf("pruning the store of %q: %v", name, err)
			continue
		}
		ps.cut, ps.feeds, ps.kept = cut, feedFrom, scanned-deleted
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
// submitted, started or ended), without changing anything.
func (s *Service) dryRun(evs []Event) error {
	views := map[string]*batchView{}
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
				v.clock = sys.clock
				for n, q := range sys.queues {
					v.queues[n] = q.maxCores
				}
				for _, f := range evs[i:] {
					if f.System != e.System || f.Kind == "queue" {
						continue
					}
					if known, started := sys.job(f.Job); known {
						v.jobs[f.Job] = jobState{known: true, started: started}
					}
				}
				sys.mu.RUnlock()
			}
			views[e.System] = v
		}
		if err := checkState(e, e.System, v); err != nil {
			return badRequest("events[%d].%v", i, err)
		}
		v.clock = e.Time
		switch e.Kind {
		case "queue":
			v.queues[e.Queue] = e.Cores
		case "submit":
			v.jobs[e.Job] = jobState{known: true}
		case "start":
			v.jobs[e.Job] = jobState{known: true, started: true}
		case "end":
			delete(v.jobs, e.Job)
		}
	}
	return nil
}

// batchView is a system as a batch's earlier events would leave it.
type batchView struct {
	clock  int64
	queues map[string]int64 // max cores
	jobs   map[int64]jobState
}

type jobState struct{ known, started bool }

func (v *batchView) lastEvent() int64 { return v.clock }

func (v *batchView) queueMax(name string) (int64, bool) {
	c, ok := v.queues[name]
	return c, ok
}

func (v *batchView) job(id int64) (known, started bool) {
	j := v.jobs[id]
	return j.known, j.started
}

// replaying reports whether a trace replay feeds the named system.
func (s *Service) replaying(name string) bool {
	s.mu.RLock()
	sys := s.systems[name]
	s.mu.RUnlock()
	if sys == nil {
		return false
	}
	sys.mu.RLock()
	defer sys.mu.RUnlock()
	return sys.sim != nil
}

// clockOf is "now" on a system: its simulated clock during a replay, else
// the service clock. The caller holds sys.mu.
func (s *Service) clockOf(sys *system) int64 {
	if sys.sim != nil {
		return sys.sim.now()
	}
	return max(s.now(), sys.clock)
}
