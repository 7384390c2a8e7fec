package karnak

import (
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
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
}
