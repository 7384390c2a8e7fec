package karnak

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// slowReplay starts a replay of replayClaimTrace as system name at real
// speed (its first events at once, the next 5 s later) and waits until
// it has stored its first batch. stop cancels it and returns its error.
func slowReplay(t *testing.T, s *Service, name string) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	trace := replayClaimTrace(t)
	go func() { done <- s.Replay(ctx, trace, name, 1, func(string, ...any) {}) }()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(time.Millisecond) {
		if _, ok := s.Last(name); ok && s.replaying(name) {
			break
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("the replay of %q never stored its first batch: %v", name, <-done)
		}
	}
	return func() error { cancel(); return <-done }
}

// conflict reports whether err is the service's 409, as a caller of the
// library branches on it.
func conflict(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == http.StatusConflict
}

// A library caller's live events for a system a replay is feeding are
// refused as the HTTP feed's are (409, one rule: fedBy), the whole batch;
// they were taken, interleaved with the replay's (an in-process slurmfeed
// Collector feeds through IngestBatch). Once the replay is stopped they
// are taken.
func TestIngestBatchReplaying(t *testing.T) {
	s, err := NewServiceWith(&MemStore{}, func() int64 { return 1_000_200_000 }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	stop := slowReplay(t, s, "fed")
	live := []Event{{Kind: "queue", System: "other", Queue: "q", Cores: 8, WallTime: 60, Time: 1_000_000_000},
		{Kind: "queue", System: "fed", Queue: "live", Cores: 8, WallTime: 60, Time: 1_000_000_001}}
	_, err = s.IngestBatch("b1", live)
	if !conflict(err) || !strings.Contains(err.Error(), `events[1].system: "fed" is being fed by a trace replay`) {
		t.Errorf("IngestBatch during the replay: %v, want a 409 naming events[1]", err)
	}
	if _, ok := s.Last("other"); ok {
		t.Error("the refused batch's event of another system was stored")
	}
	// The HTTP feed: the same rule, the same words.
	code, body := postLive(s, `{"kind":"queue","system":"fed","queue":"live","cores":8,"wallTime":60,"time":1000000001}`)
	if code != 409 || !strings.Contains(body, `events[0].system: "fed" is being fed by a trace replay`) {
		t.Errorf("the HTTP feed during the replay: %d %s, want the same 409", code, body)
	}
	if err := stop(); !errors.Is(err, context.Canceled) {
		t.Errorf("the replay, stopped: %v, want it undisturbed until then", err)
	}
	if _, err := s.IngestBatch("b1", live); err != nil {
		t.Errorf("IngestBatch after the replay was stopped: %v", err)
	}
}

// A second replay of a system a replay is feeding is refused (409); it
// took the system over (its clock the system's), and both fed it, the
// first then stopped by the second's events or the second by the first's.
func TestReplayTwice(t *testing.T) {
	s, err := NewServiceWith(&MemStore{}, func() int64 { return 1_000_200_000 }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	stop := slowReplay(t, s, "two")
	err = s.Replay(t.Context(), replayClaimTrace(t), "two", 1e12, func(string, ...any) {})
	if !conflict(err) || !strings.Contains(err.Error(), "another trace replay") {
		t.Errorf("a second replay of a system being replayed: %v, want a 409", err)
	}
	if st := systemStatus(t, s, "two"); st.Replay != "running" || st.Now >= 1_000_100_015 {
		t.Errorf("the first replay after the second's refusal: replay %q at %d, want running before 1000100015", st.Replay, st.Now)
	}
	if err := stop(); !errors.Is(err, context.Canceled) {
		t.Errorf("the first replay, stopped: %v, want it undisturbed until then", err)
	}
}

// ReplayEvents claims system name: events of another system are refused
// before anything is stored. They were fed unclaimed (the other system
// taking live events between them) while name refused its live events.
func TestReplayEventsOtherSystem(t *testing.T) {
	s, err := NewServiceWith(&MemStore{}, func() int64 { return 1_000_200_000 }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	evs := testEvents() // of system s1
	err = s.ReplayEvents(t.Context(), evs[:10], "s2", 1e12, func(string, ...any) {})
	if err == nil || !strings.Contains(err.Error(), `events[0].system: "s1", want "s2"`) {
		t.Errorf("ReplayEvents of s1's events as s2: %v, want an error naming events[0]", err)
	}
	for _, name := range []string{"s1", "s2"} {
		if _, ok := s.Last(name); ok {
			t.Errorf("%s: events stored", name)
		}
	}
}

// The HTTP feed's check and its store are one step under ingestMu: a live
// event checked (no replay then) is stored before a replay can claim its
// system, which then reads it as its last event and refuses or resumes
// after it by its rules. Checked before the lock, a replay claimed the
// system in between (the hook plays it there), read its last event (none),
// and its first batch, before the live event, was refused and stopped it
// (and qserve).
func TestLiveCheckRace(t *testing.T) {
	s, err := NewServiceWith(&MemStore{}, func() int64 { return 1_000_200_000 }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	trace := replayClaimTrace(t)
	replayed := make(chan error, 1)
	started := make(chan struct{}, 1)
	logf := func(f string, _ ...any) {
		if strings.Contains(f, "starting at") || strings.Contains(f, "resuming") {
			started <- struct{}{}
		}
	}
	var once atomic.Bool // (not a sync.Once: the replay's batches would wait for it)
	s.hooks.ingestChecked = func() {
		if !once.CompareAndSwap(false, true) {
			return
		}
		go func() { replayed <- s.Replay(t.Context(), trace, "racy", 1e12, logf) }()
		// Under ingestMu (as the check is) the replay waits for it, and
		// there is nothing to wait for; otherwise let the replay claim
		// its system and read its last event first.
		if s.ingestMu.TryLock() {
			s.ingestMu.Unlock()
			select {
			case <-started:
			case err := <-replayed:
				replayed <- err
			}
		}
	}
	code, body := postLive(s, `{"kind":"queue","system":"racy","queue":"live","cores":8,"wallTime":60,"time":1000150000}`)
	if code != 200 {
		t.Errorf("a live event checked before the replay: %d %s, want taken", code, body)
	}
	err = <-replayed
	if err == nil || !strings.Contains(err.Error(), "at or after its last") {
		t.Errorf("the replay after a live event stored: %v, want refused by its resume rules", err)
	}
	if st := systemStatus(t, s, "racy"); st.Replay != "" {
		t.Errorf("after the refused replay: replay %q, want a live system", st.Replay)
	}
}

// A replay's clock is its resume point from its claim on: the status (and
// every prediction) read at the claim said the trace's first event, its
// start set only after the last stored event was read.
func TestReplayClaimClock(t *testing.T) {
	evs := testEvents()
	st := &MemStore{}
	s, err := NewService(st, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Ingest(evs[:100]); err != nil {
		t.Fatal(err)
	}
	if s, err = NewService(st, nil); err != nil { // restart
		t.Fatal(err)
	}
	var at int64
	s.hooks.replayClaimed = func() { at = systemStatus(t, s, "s1").Now }
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := s.ReplayEvents(ctx, evs, "s1", 1, func(string, ...any) {}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("replay: %v", err)
	}
	if want := evs[99].Time; at < want || at > want+1 {
		t.Errorf("now at the replay's claim: %d (%s), want its resume point %d (%s); the trace starts at %d",
			at, stamp(at), want, stamp(want), evs[0].Time)
	}
}

// A batch stored before a replay claimed its system, retried (its first
// acknowledgement lost) while the replay feeds the system, is
// acknowledged again, storing nothing, as any retry: it was refused
// (409), which a feed counts as refused for good, though it was stored.
// A batch not stored is still refused.
func TestRetryWhileReplaying(t *testing.T) {
	evs := testEvents() // of system s1
	s, err := NewService(&MemStore{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	first := evs[:10]
	if _, err := s.IngestBatch("b", first); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	claimed := make(chan struct{})
	s.hooks.replayClaimed = func() { close(claimed) }
	go func() { done <- s.ReplayEvents(ctx, evs, "s1", 1, func(string, ...any) {}) }()
	<-claimed
	ack, err := s.IngestBatch("b", first)
	if err != nil || ack != (Ack{Batch: "b", Events: 10}) {
		t.Errorf("the stored batch, retried during the replay: %+v %v, want its Ack again", ack, err)
	}
	if _, err := s.IngestBatch("c", first); !conflict(err) || !strings.Contains(err.Error(), "being fed by a trace replay") {
		t.Errorf("a batch not stored, during the replay: %v, want a 409 (replaying)", err)
	}
	if last, _ := s.Last("s1"); last.Seq != 10 {
		t.Errorf("after the retry: the last event stored is number %d, want 10", last.Seq)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("the replay: %v, want it undisturbed", err)
	}
}

// ReplayEvents under a name that is no system's name is refused before it
// claims anything: it claimed and listed a system of that name, and its
// first batch was then refused by the events' check.
func TestReplayEventsBadName(t *testing.T) {
	s, err := NewService(&MemStore{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	evs := testEvents()[:10]
	for i := range evs {
		evs[i].System = "a/b"
	}
	claimed := false
	s.hooks.replayClaimed = func() { claimed = true }
	err = s.ReplayEvents(t.Context(), evs, "a/b", 1e12, func(string, ...any) {})
	if err == nil || !strings.Contains(err.Error(), `replay: system: "a/b" is not a name`) || claimed {
		t.Errorf("ReplayEvents as %q: %v (claimed: %v), want refused before its claim", "a/b", err, claimed)
	}
}

// ReplayEvents refuses a speed that is not above 0, as Replay does,
// before it claims its system: at 0, -1 or NaN its clock never came to
// its next event, and the system refused its live events (409) until the
// replay was stopped.
func TestReplayEventsSpeed(t *testing.T) {
	s, err := NewService(&MemStore{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	evs := testEvents()[:10]
	for _, speed := range []float64{0, -1, math.NaN(), math.Inf(-1)} {
		claimed := false
		s.hooks.replayClaimed = func() { claimed = true }
		ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
		err := s.ReplayEvents(ctx, evs, "s1", speed, func(string, ...any) {})
		cancel()
		if err == nil || !strings.Contains(err.Error(), "want > 0") || claimed {
			t.Errorf("ReplayEvents at speed %v: %v (claimed: %v), want refused before its claim", speed, err, claimed)
		}
	}
}
