package karnak

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// failingStore is a MemStore whose Append and Rewrite fail with a
// store's kind of error: a path and the driver's words.
type failingStore struct{ MemStore }

var errDisk = errors.New("open /var/lib/qserve/secret-site.db-journal: disk I/O error (sqlite 522)")

func (*failingStore) Append([]Record) error                   { return errDisk }
func (*failingStore) Rewrite(string, []int64, []Record) error { return errDisk }

// A store's error reaches a feeder (authenticated, or on loopback) as a
// fixed, numbered 500, not in the store's words: the path and the
// driver's message are the operator's, logged under the number (clipped,
// at most logBurst lines a minute, the others counted); a program that
// embeds the service still has the cause (errors.Is). Before, the 500's
// body was the store's error verbatim.
func TestStoreErrorNotLeaked(t *testing.T) {
	var mu sync.Mutex
	var logged []string
	s, err := NewServiceWith(&failingStore{}, func() int64 { return testNow }, Config{Rate: -1, Logf: func(f string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		logged = append(logged, fmt.Sprintf(f, a...))
	}})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Unix(1e9, 0) // one minute of the log's: all of the test's errors in it
	s.internals.now = func() time.Time { return at }
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	body := `{"kind":"queue","system":"s1","time":` + fmt.Sprint(testNow) + `,"queue":"q","cores":8,"wallTime":3600}`
	const n = logBurst + 5
	for i := 1; i <= n; i++ {
		resp, out := doReq(t, "POST", srv.URL+"/karnak/events", "application/json", "", body)
		if resp.StatusCode != 500 || strings.Contains(out, "/var/lib") || strings.Contains(out, "sqlite") ||
			!strings.HasPrefix(out, fmt.Sprintf("internal error %d: ", i)) {
			t.Fatalf("request %d: %d %q, want a numbered 500 without the store's words", i, resp.StatusCode, out)
		}
	}
	_, err = s.IngestBatch("", []Event{{Kind: "queue", System: "s1", Time: testNow, Queue: "q", Cores: 8, WallTime: 3600}})
	var ke *Error
	if !errors.As(err, &ke) || ke.Code != 500 || strings.Contains(ke.Message, "/var/lib") || !errors.Is(err, errDisk) {
		t.Errorf("in the process: %v, want the numbered 500 wrapping the store's error", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(logged) != logBurst {
		t.Fatalf("%d lines logged for %d errors in a minute, want %d: %q", len(logged), n+1, logBurst, logged)
	}
	if want := "karnak: internal error 1: " + errDisk.Error(); logged[0] != want {
		t.Errorf("log: %q, want %q", logged[0], want)
	}
	readme, err := os.ReadFile("../../examples/qserve/README.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("(at most %s bytes\n  a line and %d lines a minute", thousands(maxLogDetail), logBurst); !strings.Contains(string(readme), want) {
		t.Errorf("examples/qserve/README.md does not say the bounds: %q", want)
	}
}

// A cause longer than maxLogDetail is logged clipped.
func TestInternalLogClipped(t *testing.T) {
	var l internalLog
	var got string
	l.log(func(f string, a ...any) { got = fmt.Sprintf(f, a...) }, errors.New(strings.Repeat("é", 4096)))
	if len(got) > maxLogDetail+64 || !strings.HasSuffix(got, "…") {
		t.Errorf("a 8 KiB cause logged as %d bytes", len(got))
	}
	// Bytes that are not UTF-8 become U+FFFD (3 bytes each) on the one
	// line: clipped after, not before (a 4 KiB cause was 3 KiB logged).
	l.log(func(f string, a ...any) { got = fmt.Sprintf(f, a...) }, errors.New(strings.Repeat("\xff", 4096)))
	if len(got) > maxLogDetail+64 || !strings.HasSuffix(got, "…") {
		t.Errorf("a 4 KiB cause not UTF-8 logged as %d bytes", len(got))
	}
}

// The lines a minute leaves out are counted in the next minute's first
// line, numbered on: 25 errors in one minute log 20, and the first of the
// next minute says 5 were left out (the count was untested, and the
// minute came from the wall clock, so a test whose errors straddled a
// minute's turn logged more than logBurst).
func TestInternalLogCountsLeftOut(t *testing.T) {
	at := time.Unix(60*16_666_666+30, 0) // the middle of a minute
	l := internalLog{now: func() time.Time { return at }}
	var got []string
	logf := func(f string, a ...any) { got = append(got, fmt.Sprintf(f, a...)) }
	for range logBurst + 5 {
		l.log(logf, errDisk)
	}
	if len(got) != logBurst {
		t.Fatalf("%d errors in a minute: %d lines logged, want %d", logBurst+5, len(got), logBurst)
	}
	at = at.Add(time.Minute)
	if n := l.log(logf, errDisk); n != logBurst+6 || len(got) != logBurst+1 ||
		got[logBurst] != fmt.Sprintf("karnak: internal error %d (5 earlier ones not logged: at most %d a minute): %v", logBurst+6, logBurst, errDisk) {
		t.Errorf("the next minute's first error: number %d, lines %d, last %q", n, len(got), got[len(got)-1])
	}
	l.log(logf, errDisk)
	if !strings.HasPrefix(got[len(got)-1], fmt.Sprintf("karnak: internal error %d: ", logBurst+7)) {
		t.Errorf("the count said twice: %q", got[len(got)-1])
	}
}

// An error that is not the service's own reaches the client as the
// store's errors do, a numbered 500 without its words: an embedded file
// that cannot be read, a value the JSON or XML encoder refuses, a
// template that fails. Before, writeError sent its text ("open
// templates/…: file does not exist", "json: unsupported type: chan
// int"), Go's words about the service's own files and types.
func TestForeignErrorNotLeaked(t *testing.T) {
	var logged []string
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Rate: -1, Logf: func(f string, a ...any) {
		logged = append(logged, fmt.Sprintf(f, a...))
	}})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range []struct {
		what  string
		serve func(w *httptest.ResponseRecorder)
		cause string
	}{
		{"a missing embedded file", func(w *httptest.ResponseRecorder) {
			s.serveFile("missing.css", "text/css")(w, httptest.NewRequest("GET", "/karnak/missing.css", nil))
		}, "templates/missing.css"},
		{"JSON of a channel", func(w *httptest.ResponseRecorder) { s.write(w, txtReq(), "json", render{json: make(chan int)}) }, "chan int"},
		{"XML of a channel", func(w *httptest.ResponseRecorder) { s.writeXML(w, txtReq(), "stats", make(chan int)) }, "chan int"},
		{"a template that fails", func(w *httptest.ResponseRecorder) { s.renderPage(w, txtReq(), 200, "no-such-page", &page{}) }, "no-such-page"},
	} {
		w := httptest.NewRecorder()
		c.serve(w)
		out := w.Body.String()
		if w.Code != 500 || strings.Contains(out, c.cause) || !strings.HasPrefix(out, fmt.Sprintf("internal error %d: ", i+1)) {
			t.Errorf("%s: %d %q, want a numbered 500 without %q", c.what, w.Code, out, c.cause)
		}
		if len(logged) != i+1 || !strings.Contains(logged[i], c.cause) {
			t.Errorf("%s: the log %q does not hold the cause %q", c.what, logged, c.cause)
		}
	}
}

// pruneFailStore is a MemStore whose Rewrite, which only pruning calls
// here, fails with a long error of many lines.
type pruneFailStore struct {
	MemStore
	failed int
}

var errLongDisk = errors.New(strings.Repeat("disk I/O error at /var/lib/qserve/site.db\n", 200))

func (st *pruneFailStore) Rewrite(string, []int64, []Record) error {
	st.failed++
	return errLongDisk
}

// A pruning's store error is logged as every store error is: numbered,
// clipped to maxLogDetail bytes, at most logBurst lines a minute. Before,
// each failed pruning logged the store's error whole (8 KB here), as
// often as the feed reached PruneEvery.
func TestPruneErrorLogBounded(t *testing.T) {
	var logged []string
	o := retainOptions()
	o.eager = true
	o.Logf = func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }
	st := &pruneFailStore{}
	s, err := NewServiceWith(st, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Unix(1e9, 0) // one minute of the log's
	s.internals.now = func() time.Time { return at }
	evs := retainEvents(1500)
	for i := 0; i < len(evs); i += 50 {
		if err := s.Ingest(evs[i:min(i+50, len(evs))]); err != nil {
			t.Fatal(err)
		}
	}
	failed := st.failed
	t.Logf("%d prunings failed", failed)
	if failed <= logBurst {
		t.Fatalf("%d prunings failed, want more than %d for the test to mean anything", failed, logBurst)
	}
	if len(logged) != logBurst {
		t.Errorf("%d failed prunings in a minute: %d lines logged, want %d", failed, len(logged), logBurst)
	}
	for _, l := range logged {
		if len(l) > maxLogDetail+100 || strings.Contains(l, "\n") || !strings.Contains(l, "internal error") || !strings.Contains(l, "pruning the store of") {
			t.Fatalf("a failed pruning logged as %d bytes: %.200q", len(l), l)
		}
	}
}

// txtReq is a request for a text representation: its errors are text.
func txtReq() *http.Request { return httptest.NewRequest("GET", "/karnak/stats.txt", nil) }
