package karnak

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A replay at any valid speed ends, on a clock that stays within an
// event's bound: at 10^300 the simulated clock's int64 conversion
// wrapped to -2^63, no event ever came due, and the replay stalled with
// its system's clock before 1970; the pages of that system are
// answered. The clock saturates at 2^40 s, and once the replay has
// ended it stands at the log's last event (TestReplayClockStopsAtEnd).
func TestReplayClockSaturates(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "t.swf")
	if err := os.WriteFile(trace, []byte("; UnixStartTime: 1000000000\n; MaxProcs: 8\n"+
		"1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n2 100 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := NewServiceWith(&MemStore{}, func() int64 { return 1_000_000_500 }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.Replay(ctx, trace, "fast", 1e300, func(string, ...any) {}); err != nil {
		t.Fatalf("a replay at 10^300: %v, want it done", err)
	}
	s.mu.RLock()
	sys := s.systems["fast"]
	s.mu.RUnlock()
	if now := s.clockOf(sys); now != 1_000_000_115 {
		t.Errorf("the replayed system's clock: %d, want 1000000115 (its last event)", now)
	}
	c := &simClock{t0: 1_000_000_000, end: maxSpan, wall0: time.Now().Add(-time.Second), speed: 1e300}
	if now := c.now(); now != maxSpan {
		t.Errorf("a clock at 10^300 bounded by 2^40 s: %d, want %d (2^40 s, every event's bound)", now, int64(maxSpan))
	}
	for _, p := range []string{"/karnak/system/fast/status.txt", "/karnak/system/fast/queue/all_jobs/summary.html", "/karnak/system/fast/job/waiting.json"} {
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, httptest.NewRequest("GET", p, nil))
		if w.Code != 200 {
			t.Errorf("%s: %d %.200s", p, w.Code, w.Body.String())
		}
	}
}
