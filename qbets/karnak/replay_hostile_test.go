package karnak

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A trace whose jobs lie after the service's clock (a synthetic log
// dated from today, or any replayed faster than the wall clock runs to
// its end) is replayed whole: its events are due on the replay's clock.
// Held to the wall clock's MaxSkew, the first event 5 minutes ahead of
// it stopped the replay ("events[0].time: … ahead of the service's
// clock"), and qserve with it.
func TestReplayPastWallClock(t *testing.T) {
	const now = 1_000_000_000
	trace := filepath.Join(t.TempDir(), "t.swf")
	if err := os.WriteFile(trace, []byte("; UnixStartTime: 999999000\n; MaxProcs: 8\n"+
		"1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"+
		"2 86400 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"+
		"3 31536000 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := NewServiceWith(&MemStore{}, func() int64 { return now }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.Replay(ctx, trace, "future", 1e12, func(string, ...any) {}); err != nil {
		t.Fatalf("replay: %v", err)
	}
	if last, ok := s.Last("future"); !ok || last.Event.Job != 3 || last.Event.Kind != "end" {
		t.Errorf("last event %+v, want job 3's end, a year after the service's clock", last.Event)
	}
	// A live event is still held to the wall clock.
	err = s.Ingest([]Event{{Kind: "queue", System: "live", Time: now + 3600, Queue: "q", Cores: 8, WallTime: 60}})
	if err == nil || !strings.Contains(err.Error(), "ahead of the service's clock") {
		t.Errorf("a live event an hour ahead: %v, want refused", err)
	}
}

// A job numbered below 0 (SWF's -1) is unusable, counted under "no job
// number": it was replayed, the service refused its id, and the replay
// stopped at that batch ("events[11].job: -1, want a job id ≥ 0"), and
// qserve with it.
func TestReplayNegativeJobNumber(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "t.swf")
	if err := os.WriteFile(trace, []byte("; UnixStartTime: 1000000000\n; MaxProcs: 8\n"+
		"1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"+
		"-1 50 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"+
		"3 100 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := NewServiceWith(&MemStore{}, func() int64 { return 1_000_200_000 }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var log strings.Builder
	logf := func(f string, a ...any) { log.WriteString(strings.TrimSpace(fmt.Sprintf(f, a...)) + "\n") }
	if err := s.Replay(ctx, trace, "neg", 1e12, logf); err != nil {
		t.Fatalf("replay: %v\n%s", err, log.String())
	}
	if !strings.Contains(log.String(), "3 jobs (1 unusable: 1 no job number)") {
		t.Errorf("the replay's log does not count the job:\n%s", log.String())
	}
	if last, ok := s.Last("neg"); !ok || last.Event.Job != 3 || last.Event.Kind != "end" {
		t.Errorf("last event %+v, want job 3's end", last.Event)
	}
}
