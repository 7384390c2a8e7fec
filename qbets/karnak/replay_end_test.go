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

// Once a replay has fed the log's last event its clock stops there, and
// the system's status says the replay has ended: the clock ran on at the
// replay's speed (at ×10^12 it reached the year 33,567), so "now" on the
// system was far past the log and every page showed a nonsense date.
// While the replay runs the status says so.
func TestReplayClockStopsAtEnd(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "t.swf")
	if err := os.WriteFile(trace, []byte("; UnixStartTime: 1000000000\n; MaxProcs: 8\n"+
		"1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n2 100 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"+
		"3 100000 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := NewServiceWith(&MemStore{}, func() int64 { return 1_000_200_000 }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	status := func(name string) SystemStatus {
		t.Helper()
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/karnak/system/"+name+"/status.json", nil))
		var st SystemStatus
		if err := json.Unmarshal(w.Body.Bytes(), &st); w.Code != 200 || err != nil {
			t.Fatalf("%s status: %d %v %.200s", name, w.Code, err, w.Body.String())
		}
		return st
	}

	// A slow replay: running, on a clock before its last event.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	slow, stopSlow := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- s.Replay(slow, trace, "slow", 1, func(string, ...any) {}) }()
	for !s.replaying("slow") {
		if ctx.Err() != nil {
			t.Fatal("the slow replay never started")
		}
		time.Sleep(time.Millisecond)
	}
	if st := status("slow"); st.Replay != "running" || st.Now >= 1_000_100_015 {
		t.Errorf("a running replay's status: replay %q at %d, want running, before 1000100015", st.Replay, st.Now)
	}
	stopSlow()
	<-done

	// A fast one: ended, and its clock stays at the last event.
	if err := s.Replay(ctx, trace, "fast", 1e12, func(string, ...any) {}); err != nil {
		t.Fatalf("replay: %v", err)
	}
	time.Sleep(50 * time.Millisecond) // 5·10^10 s at ×10^12
	const last = 1_000_100_015        // job 3's end: submit 100000, wait 5, run 10
	if st := status("fast"); st.Now != last || st.Replay != "ended" {
		t.Errorf("after the replay: now %d (%s), replay %q; want %d (%s), ended", st.Now, stamp(st.Now), st.Replay, int64(last), stamp(last))
	}
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/karnak/system/fast/status.txt", nil))
	if first, _, _ := strings.Cut(w.Body.String(), "\n"); !strings.Contains(first, stamp(last)) || !strings.Contains(first, "replay ended") {
		t.Errorf("the status text: %q, want the last event's time and that the replay ended", first)
	}
	w = httptest.NewRecorder()
	s.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/karnak/system/fast/status.html", nil))
	if b := w.Body.String(); !strings.Contains(b, "The trace replay has ended") {
		t.Errorf("the status page does not say the replay ended: %.300s", b)
	}
	// A queue's statistics are taken at the last event too.
	w = httptest.NewRecorder()
	s.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/karnak/system/fast/queue/all_jobs/summary.json", nil))
	if !strings.Contains(w.Body.String(), `"now":1000100015`) {
		t.Errorf("a queue's summary after the replay: %d %.300s, want now 1000100015", w.Code, w.Body.String())
	}
}
