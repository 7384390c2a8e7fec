package main

import (
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets/karnak"
	"github.com/batchq/batchq/swf"
)

// The SQLite store keeps the QBETS states the service saves when it
// prunes: a restart from the pruned database restores them (one that
// does not decode is reported), reads a fraction of the events, and
// answers byte for byte as before. (That the answers need the saved
// states is shown in qbets/karnak, TestPruneRestartSamePredictions; on
// KTH the trimmed histories lie within the events kept.)
func TestSavedStateRestart(t *testing.T) {
	h, jobs, err := swf.ReadFile(tracetest.Path(t, tracetest.KTH))
	if err != nil {
		t.Fatal(err)
	}
	// The whole trace: the IBL base of jobs seen queued holds 10,000 of
	// its 16,931 and bounds the cut until then.
	evs, _ := karnak.TraceEvents(h, jobs, "kth")
	now := evs[len(evs)-1].Time + 60
	var logs strings.Builder
	cfg := karnak.Config{Now: func() int64 { return now }, PruneEvery: 2000, NoCache: true,
		Logf: func(f string, a ...any) { fmt.Fprintf(&logs, f+"\n", a...) }}
	db := filepath.Join(t.TempDir(), "q.db")
	st, err := OpenStore(db)
	if err != nil {
		t.Fatal(err)
	}
	s := newService(t, st, cfg)
	for i := 0; i < len(evs); i += 2000 {
		if err := s.Ingest(evs[i:min(i+2000, len(evs))]); err != nil {
			t.Fatal(err)
		}
	}
	var queries []string
	for _, lv := range karnak.DefaultLevels() {
		queries = append(queries, fmt.Sprintf(`{"cores": 8, "wallTime": 3600, "within": 1800, "quantile": %d, "confidence": %d, "locations": ["default@kth"]}`, lv.Quantile, lv.Confidence))
	}
	answers := func(s *karnak.Service) []string {
		srv := httptest.NewServer(s.Handler())
		defer srv.Close()
		var out []string
		for _, q := range queries {
			code, body := do(t, "POST", srv.URL+"/karnak/waittime/prediction/?format=json", "application/json", q)
			if code != 200 {
				t.Fatalf("%d %s", code, body)
			}
			out = append(out, body)
		}
		return out
	}
	before := answers(s)
	rows, _ := st.Rows()
	st.Close()
	if st, err = OpenStore(db); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	t0 := time.Now()
	s = newService(t, st, cfg)
	t.Logf("%d events, %d stored; restart in %v", len(evs), rows, time.Since(t0).Round(time.Millisecond))
	if rows > len(evs)*3/4 {
		t.Fatalf("the store keeps %d of %d events: nothing was pruned", rows, len(evs))
	}
	for i, a := range answers(s) {
		if a != before[i] {
			t.Errorf("after the restart:\n%s\nbefore:\n%s", a, before[i])
		}
	}
	var states int
	if err := st.db.QueryRow(`SELECT COUNT(*) FROM events WHERE state IS NOT NULL`).Scan(&states); err != nil || states != 1 {
		t.Fatalf("%d saved states (%v), want 1 (KTH has one queue)", states, err)
	}
	if strings.Contains(logs.String(), "not restored") {
		t.Fatalf("log: %s", logs.String())
	}
	// A damaged state is reported, and the service still starts.
	if _, err := st.db.Exec(`UPDATE events SET state = x'00' WHERE state IS NOT NULL`); err != nil {
		t.Fatal(err)
	}
	newService(t, st, cfg)
	if !strings.Contains(logs.String(), `queue "default": the saved QBETS state is not restored`) {
		t.Fatalf("a damaged state was not reported; log:\n%s", logs.String())
	}
}
