package karnak

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// listed is the names in the list of systems, as a user reads it.
func listed(t *testing.T, s *Service) []string {
	t.Helper()
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/karnak/system/status.json", nil))
	var all []SystemStatus
	if err := json.Unmarshal(w.Body.Bytes(), &all); w.Code != 200 || err != nil {
		t.Fatalf("the list of systems: %d %v %.200s", w.Code, err, w.Body.String())
	}
	names := []string{}
	for _, st := range all {
		names = append(names, st.System)
	}
	return names
}

// A replay stopped before it stored an event of its system leaves no
// system: the claim made it, and it stayed listed, with no queue and no
// job, its status a live system's, and counted in MaxSystems (a feed then
// refused, 403, the system the limit had room for) until a drop. Stopped
// by its context (qserve's shutdown) or by its first batch refused.
// A replay that stored events leaves its system, fed live from then on.
func TestReplayStoppedLeavesNoSystem(t *testing.T) {
	const wall = 1_000_200_000
	s, err := NewServiceWith(&MemStore{}, func() int64 { return wall }, Config{Rate: -1, MaxSystems: 2})
	if err != nil {
		t.Fatal(err)
	}
	trace := replayClaimTrace(t)
	nolog := func(string, ...any) {}
	if err := s.Ingest([]Event{{Kind: "queue", System: "kept", Queue: "q", Cores: 8, WallTime: 60, Time: wall}}); err != nil {
		t.Fatal(err)
	}

	// Stopped at its claim, before its first tick.
	ctx, cancel := context.WithCancel(context.Background())
	var during []string
	s.hooks.replayClaimed = func() { during = listed(t, s); cancel() }
	if err := s.Replay(ctx, trace, "ghost", 1, nolog); !errors.Is(err, context.Canceled) {
		t.Fatalf("the replay stopped at its claim: %v", err)
	}
	s.hooks.replayClaimed = nil
	if strings.Join(during, " ") != "ghost kept" {
		t.Errorf("while the replay ran: systems %q, want it listed", during)
	}
	if got := listed(t, s); strings.Join(got, " ") != "kept" {
		t.Errorf("after the replay stopped with nothing stored: systems %q, want [kept]", got)
	}
	if _, err := s.lookup("ghost"); err == nil {
		t.Error("the stopped replay's system is still known")
	}
	// Its place under MaxSystems is free again.
	if err := s.Ingest([]Event{{Kind: "queue", System: "new", Queue: "q", Cores: 8, WallTime: 60, Time: wall}}); err != nil {
		t.Errorf("a new system after the stopped replay (MaxSystems 2): %v", err)
	}
	if err := s.Drop("new"); err != nil {
		t.Error(err)
	}

	// Stopped by its first batch, refused: the trace has two queues, the
	// service takes one a system. (A trace ahead of the service's clock
	// was refused so too, until a replay's events were held to its own
	// clock: TestReplayPastWallClock.)
	twoQueues := filepath.Join(t.TempDir(), "q2.swf")
	if err := os.WriteFile(twoQueues, []byte("; UnixStartTime: 1000000000\n; MaxProcs: 8\n"+
		"1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n2 100 5 10 1 -1 -1 1 20 -1 1 1 1 1 2 -1 -1 -1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	oneQueue, err := NewServiceWith(&MemStore{}, func() int64 { return wall }, Config{Rate: -1, MaxQueues: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := oneQueue.Replay(t.Context(), twoQueues, "ghost", 1e12, nolog); err == nil || !strings.Contains(err.Error(), "MaxQueues") {
		t.Errorf("a replay of two queues, at most one taken: %v, want its first batch refused", err)
	}
	if got := listed(t, oneQueue); len(got) != 0 {
		t.Errorf("after the refused replay: systems %q, want none", got)
	}

	// Stopped after its first batch: the system stays, fed live.
	stop := slowReplay(t, s, "fed")
	if err := stop(); !errors.Is(err, context.Canceled) {
		t.Fatalf("the replay, stopped: %v", err)
	}
	if got := listed(t, s); strings.Join(got, " ") != "fed kept" {
		t.Errorf("after a replay that stored events was stopped: systems %q, want [fed kept]", got)
	}
	if st := systemStatus(t, s, "fed"); st.Replay != "" || st.Now != wall {
		t.Errorf("after the replay was stopped: replay %q at %d, want a live system at %d", st.Replay, st.Now, int64(wall))
	}
}
