package karnak

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// replayClaimTrace is a small trace: a queue, three jobs, its last event
// at 1000100015 (TestReplayEndedTakesLive's).
func replayClaimTrace(t *testing.T) string {
	t.Helper()
	trace := filepath.Join(t.TempDir(), "t.swf")
	if err := os.WriteFile(trace, []byte("; UnixStartTime: 1000000000\n; MaxProcs: 8\n"+
		"1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n2 100 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"+
		"3 100000 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return trace
}

func postLive(s *Service, body string) (int, string) {
	r := httptest.NewRequest("POST", "/karnak/events", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.RemoteAddr = "127.0.0.1:1234"
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, r)
	return w.Code, w.Body.String()
}

func systemStatus(t *testing.T, s *Service, name string) SystemStatus {
	t.Helper()
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/karnak/system/"+name+"/status.json", nil))
	var st SystemStatus
	if err := json.Unmarshal(w.Body.Bytes(), &st); w.Code != 200 || err != nil {
		t.Fatalf("%s status: %d %v %.200s", name, w.Code, err, w.Body.String())
	}
	return st
}

// A live event for a system whose replay is starting either lands before
// the replay claims the system (the replay then reads it as the last
// event stored, and is refused by its resume rules) or is refused (409)
// while the replay runs. The claim reads the last event stored and sets
// the replay's clock in one hold of ingestMu (claimReplay); the hook
// claimRead starts a concurrent writer between the two, deterministically:
// under the lock it waits for the claim; with the hold split (the read,
// then the clock), the hook lets it run to its end in between.
//
//   - An IngestBatch of a live event later than the trace's first: split,
//     it was taken, and the replay's first batch, before it in time, was
//     refused and stopped the replay (and qserve).
//   - A second replay of the system: split, it claimed the system too (it
//     logged its start), and both fed it, the second stopped by its first
//     batch, as another's.
func TestReplayClaimRace(t *testing.T) {
	const wall = 1_000_200_000
	trace := replayClaimTrace(t)
	live := []Event{{Kind: "queue", System: "racy", Queue: "live", Cores: 8, WallTime: 60, Time: 1_000_150_000}}
	// replay runs a replay of trace as "racy" at real speed (the trace's
	// first events at once, the next 5 s later), with writer started at
	// its claim, and waits for writer, then for the replay's first batch
	// (or its end), then stops it: its error, nil if it was still running.
	replay := func(t *testing.T, writer func(s *Service) (wait func())) (s *Service, err error) {
		s, err = NewServiceWith(&MemStore{}, func() int64 { return wall }, Config{Rate: -1})
		if err != nil {
			t.Fatal(err)
		}
		var once atomic.Bool // (not a sync.Once: the writer's own claim would wait for it)
		var wait func()
		s.hooks.claimRead = func() {
			if !once.CompareAndSwap(false, true) {
				return
			}
			wait = writer(s)
			// Under ingestMu (as the read is) the writer waits for the
			// claim, and there is nothing to wait for.
			if s.ingestMu.TryLock() {
				s.ingestMu.Unlock()
				wait()
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan error, 1)
		go func() { done <- s.Replay(ctx, trace, "racy", 1, func(string, ...any) {}) }()
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(time.Millisecond) {
			select {
			case err := <-done:
				wait()
				return s, err
			default:
			}
			if last, ok := s.Last("racy"); ok && last.Event.Time == 1_000_000_000 && s.replaying("racy") {
				break // the trace's first batch stored
			}
			if time.Now().After(deadline) {
				t.Fatal("the replay neither stored its first batch nor ended")
			}
		}
		wait()
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			return s, err
		}
		return s, nil
	}

	t.Run("IngestBatch", func(t *testing.T) {
		ingested := make(chan error, 1)
		s, err := replay(t, func(s *Service) func() {
			go func() { _, err := s.IngestBatch("b", live); ingested <- err }()
			return func() { ingested <- <-ingested }
		})
		if err != nil {
			t.Errorf("the replay with a live event at its claim: %v, want it undisturbed", err)
		}
		if err := <-ingested; !conflict(err) || !strings.Contains(err.Error(), "is being fed by a trace replay") {
			t.Errorf("a live event at the replay's claim: %v, want a 409 (replaying)", err)
		}
		if last, _ := s.Last("racy"); last.Event.Queue == "live" {
			t.Errorf("after the replay was stopped: the last event stored is the live one, %+v", last.Event)
		}
	})

	t.Run("second replay", func(t *testing.T) {
		second := make(chan error, 1)
		var claimed atomic.Bool // the second replay logged its start
		logf := func(f string, _ ...any) {
			if strings.Contains(f, "starting at") || strings.Contains(f, "resuming") {
				claimed.Store(true)
			}
		}
		_, err := replay(t, func(s *Service) func() {
			go func() { second <- s.Replay(t.Context(), trace, "racy", 1e12, logf) }()
			return func() { second <- <-second }
		})
		if err != nil {
			t.Errorf("the first replay with a second at its claim: %v, want it undisturbed", err)
		}
		if err := <-second; !conflict(err) || !strings.Contains(err.Error(), "another trace replay") || claimed.Load() {
			t.Errorf("a second replay at the first's claim: %v (started: %v), want refused at its claim (409)", err, claimed.Load())
		}
	})

	// Live events after the claim: refused while the replay runs.
	s, err := NewServiceWith(&MemStore{}, func() int64 { return wall }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	nolog := func(string, ...any) {}
	liveJSON := `{"kind":"queue","system":"%s","queue":"live","cores":8,"wallTime":60,"time":1000150000}`
	var code int
	var body string
	s.hooks.replayClaimed = func() { code, body = postLive(s, strings.ReplaceAll(liveJSON, "%s", "after")) }
	err = s.Replay(ctx, trace, "after", 1e12, nolog)
	if code != 409 || !strings.Contains(body, "being fed by a trace replay") {
		t.Errorf("a live event after the replay's claim: %d %q, want 409 (replaying)", code, body)
	}
	if err != nil {
		t.Errorf("the replay with a live event after its claim: %v, want it whole", err)
	}
	if st := systemStatus(t, s, "after"); st.Replay != "ended" || st.Now != 1_000_100_015 {
		t.Errorf("after the replay: replay %q at %d, want ended at 1000100015", st.Replay, st.Now)
	}

	// Before the claim: taken, and the replay refused by its resume rules,
	// saying why (the system keeps no replay clock).
	if code, body := postLive(s, strings.ReplaceAll(liveJSON, "%s", "early")); code != 200 {
		t.Fatalf("a live event before the replay: %d %q", code, body)
	}
	err = s.Replay(ctx, trace, "early", 1e12, nolog)
	if err == nil || !strings.Contains(err.Error(), "at or after its last") {
		t.Errorf("the replay after a live event: %v, want refused by its resume rules", err)
	}
	if st := systemStatus(t, s, "early"); st.Replay != "" || st.Now != wall {
		t.Errorf("after the refused replay: replay %q at %d, want a live system at %d", st.Replay, st.Now, int64(wall))
	}
}

// An estimate event on a system whose replay has ended is a live event as
// any other: it makes the system live (its clock the service's, its status
// without a replay). It was taken while the system stayed the replay's.
func TestReplayEndedEstimateMakesLive(t *testing.T) {
	const wall = 1_000_200_000
	s, err := NewServiceWith(&MemStore{}, func() int64 { return wall }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := s.Replay(ctx, replayClaimTrace(t), "e", 1e12, func(string, ...any) {}); err != nil {
		t.Fatal(err)
	}
	if st := systemStatus(t, s, "e"); st.Replay != "ended" {
		t.Fatalf("after the replay: replay %q, want ended", st.Replay)
	}
	est := `{"kind":"estimate","system":"e","queue":"q1","cores":1,"wallTime":60,"time":1000150000,"start":1000150100}`
	if code, body := postLive(s, est); code != 200 {
		t.Fatalf("an estimate after the replay ended: %d %q", code, body)
	}
	if st := systemStatus(t, s, "e"); st.Replay != "" || st.Now != wall {
		t.Errorf("after a live estimate: replay %q at %d, want a live system at %d", st.Replay, st.Now, int64(wall))
	}
}
