package karnak

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
)

// Requests of every kind run while events are ingested (run with -race):
// none fails, and the final state answers exactly as a service that was
// fed the same events with no requests in between.
func TestConcurrentRequests(t *testing.T) {
	s, srv := newTestServer(t, Config{MaxSkew: week}) // the clock stays at testNow
	var more []Event
	for i := int64(0); i < 60; i++ {
		at := testNow + 10*i
		id := 3000 + i
		more = append(more, Event{Kind: "submit", System: "s1", Job: id, Time: at, Queue: "normal", Cores: 1 + i%8, WallTime: 600})
		if i >= 2 {
			more = append(more, Event{Kind: "start", System: "s1", Job: id - 2, Time: at + 1})
		}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(done)
		for i := 0; i < len(more); i += 4 {
			if err := s.Ingest(more[i:min(i+4, len(more))]); err != nil {
				t.Errorf("ingest: %v", err)
				return
			}
		}
	}()
	paths := []struct{ method, path, body string }{
		{"GET", "/karnak/system/status.json", ""},
		{"GET", "/karnak/system/s1/status.txt", ""},
		{"GET", "/karnak/system/s1/queue/all_jobs/summary.json", ""},
		{"GET", "/karnak/system/s1/job/waiting.txt", ""},
		{"GET", "/karnak/system/s1/job/1002/prediction/waittime.json?within=600", ""},
		{"GET", "/karnak/system/s1/job/3000/prediction/starttime.txt?confidence=80", ""}, // may start meanwhile
		{"POST", "/karnak/waittime/prediction/?format=json", `{"cores": 4, "wallTime": 600, "quantile": 50, "within": 60, "locations": ["normal@s1", "debug@s1"]}`},
		{"POST", "/karnak/starttime/prediction/", "processors 2\nrequestedWallTime 00:10:00\nlocation s1 normal\n"},
	}
	// Each client asks at most perClient times: 4 × 32 requests of at
	// most 6 tokens (one, one more for a second location, a forecast's
	// simulation of at most 200 jobs for each) stay within the default
	// burst of 1,000, whatever the interleaving. Unbounded, the clients
	// asked as often as the ingesting goroutine's pace allowed, and were
	// refused (429) when it was slow: 15 batches ingested 100 ms apart
	// got thousands of refusals.
	const perClient = 32
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := w; k < w+perClient; k++ {
				select {
				case <-done:
					return
				default:
				}
				p := paths[k%len(paths)]
				ct := "application/json"
				if strings.HasPrefix(p.body, "processors") {
					ct = "text/plain"
				}
				code, body := do(t, p.method, srv.URL+p.path, ct, p.body)
				if code != 200 && !(code == 404 && strings.Contains(body, "jobId")) {
					t.Errorf("%s: %d %s", p.path, code, body)
				}
			}
		}()
	}
	wg.Wait()

	seq, err := NewServiceWith(nil, func() int64 { return testNow }, Config{MaxSkew: week})
	if err != nil {
		t.Fatal(err)
	}
	if err := seq.Ingest(append(testEvents(), more...)); err != nil {
		t.Fatal(err)
	}
	r := &PredictRequest{Cores: 4, WallTime: 600, Confidence: 90, Quantile: 50, Within: 60, Locations: []Location{{"s1", "normal"}}}
	a, err1 := s.PredictHypothetical(r)
	b, err2 := seq.PredictHypothetical(r)
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if err1 != nil || err2 != nil || string(ja) != string(jb) || !strings.Contains(string(ja), `"qbets":{`) {
		t.Errorf("concurrent and sequential feeds disagree:\n%s %v\n%s %v", ja, err1, jb, err2)
	}
}
