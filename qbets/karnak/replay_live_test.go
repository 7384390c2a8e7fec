package karnak

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A replay that has ended (fed its log's last event) or was stopped
// feeds its system no more, and the system is then as one whose replay
// was stopped by a restart: it takes live events, Drop and Rewind. An
// ended replay's system refused them for as long as the service ran
// (409, "stop it first", though there was nothing left to stop), and a
// replay stopped by its context left its system refusing them too, its
// clock running on at the replay's speed. While a replay runs, they are
// refused, saying until when. The first live event makes the system a
// live one: its clock the service's, its status without a replay.
func TestReplayEndedTakesLive(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "t.swf")
	if err := os.WriteFile(trace, []byte("; UnixStartTime: 1000000000\n; MaxProcs: 8\n"+
		"1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n2 100 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"+
		"3 100000 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const wall = 1_000_200_000
	s, err := NewServiceWith(&MemStore{}, func() int64 { return wall }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	post := func(system string, job int) (int, string) {
		t.Helper()
		body := `{"kind":"submit","system":"` + system + `","job":` + strconv.Itoa(job) + `,"time":1000150000,"queue":"q1","cores":1,"wallTime":60}`
		r := httptest.NewRequest("POST", "/karnak/events", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.RemoteAddr = "127.0.0.1:1234"
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, r)
		return w.Code, w.Body.String()
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
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	nolog := func(string, ...any) {}

	// Running: refused, saying until when.
	slow, stopSlow := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- s.Replay(slow, trace, "slow", 1, nolog) }()
	for _, ok := s.Last("slow"); !ok; _, ok = s.Last("slow") { // its queue declared
		if ctx.Err() != nil {
			t.Fatal("the slow replay never started")
		}
		time.Sleep(time.Millisecond)
	}
	if code, body := post("slow", 100); code != 409 || !strings.Contains(body, "once the replay has ended") {
		t.Errorf("a live event during the replay: %d %q, want 409 saying when it is taken", code, body)
	}
	for _, err := range []error{s.Drop("slow"), s.Rewind("slow", 1_000_000_000)} {
		var e *Error
		if !errors.As(err, &e) || e.Code != 409 || !strings.Contains(e.Message, "once the replay has ended") {
			t.Errorf("a repair during the replay: %v, want 409 saying when it is taken", err)
		}
	}
	// Stopped: taken.
	stopSlow()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("the stopped replay: %v", err)
	}
	if st := status("slow"); st.Replay != "" {
		t.Errorf("a stopped replay's status: replay %q, want none (a system fed live)", st.Replay)
	}
	if code, body := post("slow", 100); code != 200 {
		t.Errorf("a live event after the replay was stopped: %d %q, want 200", code, body)
	}

	// Ended: taken, and the first live event makes the system live.
	for _, name := range []string{"live", "rewound", "dropped"} {
		if err := s.Replay(ctx, trace, name, 1e12, nolog); err != nil {
			t.Fatalf("replay: %v", err)
		}
		if st := status(name); st.Replay != "ended" || st.Now != 1_000_100_015 {
			t.Fatalf("%s: replay %q at %d, want ended at the last event", name, st.Replay, st.Now)
		}
	}
	if code, body := post("live", 100); code != 200 {
		t.Errorf("a live event after the replay ended: %d %q, want 200", code, body)
	}
	if st := status("live"); st.Replay != "" || st.Now != wall || st.Waiting != 1 {
		t.Errorf("after a live event: replay %q at %d, %d waiting; want a live system at the service's clock %d, 1 waiting", st.Replay, st.Now, st.Waiting, wall)
	}
	if err := s.Rewind("rewound", 1_000_000_100); err != nil {
		t.Errorf("Rewind after the replay ended: %v", err)
	}
	if last, _ := s.Last("rewound"); last.Event.Time != 1_000_000_100 {
		t.Errorf("rewound to 1000000100: its last event at %d", last.Event.Time)
	}
	if err := s.Drop("dropped"); err != nil {
		t.Errorf("Drop after the replay ended: %v", err)
	}
	if _, ok := s.Last("dropped"); ok {
		t.Error("dropped: still known")
	}

	// The same replay again (a restart with the same -replay, which stops
	// qserve when refused) on the system that took a live event: refused,
	// saying why and what to do, not "replay it under another name, or use
	// another store" (which leaves its history); after the rewind it
	// advises, it resumes, at its end.
	err = s.Replay(ctx, trace, "live", 1e12, nolog)
	if err == nil || !strings.Contains(err.Error(), "took live events after its replay ended") ||
		!strings.Contains(err.Error(), "rewind it to 1000100015") {
		t.Errorf("the replay again after a live event: %v, want refused saying why", err)
	}
	if err := s.Rewind("live", 1_000_100_015); err != nil {
		t.Fatal(err)
	}
	if err := s.Replay(ctx, trace, "live", 1e12, nolog); err != nil {
		t.Errorf("the replay again after the rewind: %v", err)
	}
	if st := status("live"); st.Replay != "ended" || st.Now != 1_000_100_015 || st.Waiting != 0 {
		t.Errorf("after the rewind and the replay: replay %q at %d, %d waiting; want ended at the last event, none waiting", st.Replay, st.Now, st.Waiting)
	}
}
