package karnak

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
)

// A replay resumes after the events of its system already stored, and
// refuses a database whose events for that name are not the trace's
// prefix.
func TestReplayResume(t *testing.T) {
	evs := testEvents()
	st := &MemStore{}
	s, err := NewService(st, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Ingest(evs[:100]); err != nil { // as if the last run stopped here
		t.Fatal(err)
	}
	s, err = NewService(st, nil) // restart
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	logf := func(f string, a ...any) { log.WriteString(strings.TrimSpace(fmt.Sprintf(f, a...)) + "\n") }
	if err := s.ReplayEvents(context.Background(), evs, "s1", 1e9, logf); err != nil {
		t.Fatal(err)
	}
	if n := st.Len(); n != len(evs) || !strings.Contains(log.String(), "100 of ") {
		t.Errorf("stored %d of %d events; log:\n%s", n, len(evs), log.String())
	}
	// Live events for a system whose replay has ended are taken (while it
	// runs, a 409: TestReplayEndedTakesLive).
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	code, body := do(t, "POST", srv.URL+"/karnak/events", "application/json",
		`{"kind":"queue","system":"s1","time":999999,"queue":"extra","cores":1,"wallTime":60}`)
	if code != 200 {
		t.Errorf("live event on a system whose replay has ended: %d %s", code, body)
	}
	// A different history under the same name is refused.
	other := append([]Event(nil), evs...)
	other[len(other)-1].Time++
	s, err = NewService(st, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = s.ReplayEvents(context.Background(), other, "s1", 1e9, logf)
	if err == nil || !strings.Contains(err.Error(), "not one of this trace") {
		t.Errorf("mismatched resume: %v", err)
	}
}
