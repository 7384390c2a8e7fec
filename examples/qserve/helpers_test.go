package main

import (
	"cmp"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/qbets/karnak"
	"github.com/batchq/batchq/qbets/karnak/karnaktest"
)

// testNow is the fixed service clock of the tests: a minute after the
// last test event.
var testNow = func() int64 { e := testEvents(); return e[len(e)-1].Time + 60 }()

// testEvents is the small live feed of karnak's tests on system "s1":
// queues "normal" (64 cores, 24 h) and "debug" (8 cores, 1 h), 120 jobs
// that started and ended, and jobs 1001–1003 still waiting (submitted
// with job 120, 7 minutes before testNow).
func testEvents() []karnak.Event {
	evs := []karnak.Event{
		{Kind: "queue", System: "s1", Time: 0, Queue: "normal", Cores: 64, WallTime: 86400},
		{Kind: "queue", System: "s1", Time: 0, Queue: "debug", Cores: 8, WallTime: 3600},
	}
	t := int64(10)
	for i := int64(1); i <= 120; i++ {
		q := "normal"
		if i%4 == 0 {
			q = "debug"
		}
		evs = append(evs,
			karnak.Event{Kind: "submit", System: "s1", Job: i, Time: t, Queue: q, Cores: 1 << (i % 4), WallTime: 600 * (1 + i%5), User: fmt.Sprint("u", i%3)},
			karnak.Event{Kind: "start", System: "s1", Job: i, Time: t + 60*(i%17)},
			karnak.Event{Kind: "end", System: "s1", Job: i, Time: t + 60*(i%17) + 300})
		if i == 120 {
			for k := int64(1001); k <= 1003; k++ {
				evs = append(evs, karnak.Event{Kind: "submit", System: "s1", Job: k, Time: t + k - 1000, Queue: "normal", Cores: 4, WallTime: 3600, User: "u1"})
			}
		}
		t += 60*(i%17) + 400
	}
	slices.SortStableFunc(evs, func(a, b karnak.Event) int { return cmp.Compare(a.Time, b.Time) })
	return evs
}

// newService is a loaded service over st (nil: in memory) at testNow.
func newService(t *testing.T, st karnak.Store, cfg karnak.Config) *karnak.Service {
	t.Helper()
	if cfg.Now == nil {
		cfg.Now = func() int64 { return testNow }
	}
	s, err := karnak.New(st, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Load(t.Context()); err != nil {
		t.Fatal(err)
	}
	return s
}

func newTestServer(t *testing.T) (*karnak.Service, *httptest.Server) {
	t.Helper()
	s := newService(t, nil, karnak.Config{})
	if err := s.Ingest(testEvents()); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return s, srv
}

func do(t *testing.T, method, url, ctype, body string) (int, string) {
	t.Helper()
	return doAuth(t, method, url, ctype, "", body)
}

func doAuth(t *testing.T, method, url, ctype, token, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestSQLiteStoreConforms(t *testing.T) {
	karnaktest.Store(t, func(t *testing.T) karnak.Store {
		st, err := OpenStore(filepath.Join(t.TempDir(), "c.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	})
}

func writeFile(path, s string) error { return os.WriteFile(path, []byte(s), 0o600) }

// feedToken is the write token serve made beside db at its first start.
func feedToken(t *testing.T, db string) string {
	t.Helper()
	tks, err := readTokens(db + ".tokens")
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range tks {
		if tk.Name == "feed" {
			return tk.Secret
		}
	}
	t.Fatalf("no feed token in %s.tokens", db)
	return ""
}
