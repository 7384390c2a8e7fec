package karnak

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
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
// while the replay runs. ReplayEvents read the last event, then claimed
// the system: a live event between the two was taken, and the replay's
// first batch, before it in time, was refused and stopped the replay (and
// qserve). The hook ran the live event at that point, deterministically;
// the read and the claim are now one hold of ingestMu (claimReplay), and
// the hook runs after it. The live feed's half: TestLiveCheckRace.
func TestReplayClaimRace(t *testing.T) {
	const wall = 1_000_200_000
	s, err := NewServiceWith(&MemStore{}, func() int64 { return wall }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	nolog := func(string, ...any) {}
	trace := replayClaimTrace(t)
	live := `{"kind":"queue","system":"%s","queue":"live","cores":8,"wallTime":60,"time":1000150000}`

	var code int
	var body string
	replayClaimed = func() { code, body = postLive(s, strings.ReplaceAll(live, "%s", "racy")) }
	err = s.Replay(ctx, trace, "racy", 1e12, nolog)
	replayClaimed = nil
	if code != 409 || !strings.Contains(body, "being fed by a trace replay") {
		t.Errorf("a live event at the replay's claim: %d %q, want 409 (replaying)", code, body)
	}
	if err != nil {
		t.Errorf("the replay with a live event at its claim: %v, want it whole", err)
	}
	if st := systemStatus(t, s, "racy"); st.Replay != "ended" || st.Now != 1_000_100_015 {
		t.Errorf("after the replay: replay %q at %d, want ended at 1000100015", st.Replay, st.Now)
	}

	// Before the claim: taken, and the replay refused by its resume rules,
	// saying why (the system keeps no replay clock).
	if code, body := postLive(s, strings.ReplaceAll(live, "%s", "early")); code != 200 {
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
