package karnak

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// On an empty store a replay starts at the trace's first event, the
// first usable job's submission, and its log says so: it said "0 of 10
// events already stored, resuming at" that time, which for a cleaned
// trace (KTH's first job is 6.9 days after its UnixStartTime) read as a
// week of the trace already replayed. Replay's first line says where the
// first event is against the trace's start; a restart still resumes.
func TestReplayLogSaysWhereItStarts(t *testing.T) {
	const start, first = 1000000000, 7*24*3600 - 3600 // the first job a week less an hour in
	trace := fmt.Sprintf("; UnixStartTime: %d\n; MaxProcs: 64\n", start)
	for i := range 3 {
		trace += fmt.Sprintf("%d %d 10 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n", i+1, first+60*i)
	}
	path := filepath.Join(t.TempDir(), "t.swf")
	if err := os.WriteFile(path, []byte(trace), 0o600); err != nil {
		t.Fatal(err)
	}
	st := &MemStore{}
	replay := func() string {
		t.Helper()
		s, err := NewService(st, nil)
		if err != nil {
			t.Fatal(err)
		}
		var log strings.Builder
		logf := func(f string, a ...any) { log.WriteString(fmt.Sprintf(f, a...) + "\n") }
		if err := s.Replay(context.Background(), path, "t", 1e9, logf); err != nil {
			t.Fatal(err)
		}
		return log.String()
	}
	log := replay()
	for _, want := range []string{
		"its first event (the first usable job's submission) at " + stamp(start+first) + ", 167:00:00 after the trace's start (UnixStartTime " + stamp(start) + ")",
		`replay "t": none of its 10 events stored yet: starting at its first event, ` + stamp(start+first) + "\n",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("empty store: the log lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, "resuming") {
		t.Errorf("empty store: the log says it resumes:\n%s", log)
	}
	// A restart over the whole trace stored: it resumes after the last
	// event (job 3's end), and says so.
	last := stamp(start + first + 120 + 10 + 100)
	if log := replay(); !strings.Contains(log, `replay "t": 10 of 10 events already stored, resuming after the last stored, at `+last+"\n") {
		t.Errorf("restart: the log does not say it resumes at %s:\n%s", last, log)
	}
}
