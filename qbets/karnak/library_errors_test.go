package karnak

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/batchq/batchq/qbets/ibl"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/forecast"
	"github.com/batchq/batchq/swf"
)

// An error of a library a prediction calls (the forecast's simulation,
// the IBL search) is the service's bug, which the client can do nothing
// about: its reason is numbered as an internal error's, and the cause
// (the library's text about the service's state) is logged under the
// number, not shown. Both reasons were the library's text: "no forecast:
// forecast: bad snapshot: machine size 64, but the nodes have 7 cores",
// "no IBL estimate: ibl: query has 7 inputs for 1 features". Here the
// system's forecasters play 7 cores where its queues say 64, and its
// base of hypothetical jobs has one feature.
func TestLibraryErrorsNumbered(t *testing.T) {
	var mu sync.Mutex
	var logged []string
	s, _ := newTestServer(t, Config{Rate: -1, Logf: func(f string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		logged = append(logged, fmt.Sprintf(f, a...))
	}})
	sys, err := s.lookup("s1")
	if err != nil {
		t.Fatal(err)
	}
	seven, err := forecast.New(forecast.Config{Policy: sched.Config{Nodes: []swf.Node{{Name: "n7", Count: 1, Cores: 7}}}})
	if err != nil {
		t.Fatal(err)
	}
	one, err := ibl.New(ibl.Config{Features: ibl.NotQueuedFeatures()[:1], N: 1, MaxSize: 10})
	if err != nil {
		t.Fatal(err)
	}
	sys.mu.Lock()
	sys.fc.mu.Lock()
	sys.fc.f, sys.fc.rec, sys.fc.have = seven, seven, false
	sys.fc.mu.Unlock()
	sys.notQueued = one
	sys.mu.Unlock()
	// A new job (a new state, past the caches), whose forecast for the
	// calibration is recorded at the next event.
	if err := s.Ingest([]Event{{Kind: "submit", System: "s1", Job: 5000, Time: testNow, Queue: "normal", Cores: 2, WallTime: 600},
		{Kind: "submit", System: "s1", Job: 5001, Time: testNow + 1, Queue: "normal", Cores: 2, WallTime: 600}}); err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	ask := func(method, path, body string) Prediction {
		w := httptest.NewRecorder()
		r := httptest.NewRequest(method, path, strings.NewReader(body))
		if body != "" {
			r.Header.Set("Content-Type", "application/json")
		}
		h.ServeHTTP(w, r)
		var ps []Prediction
		var p Prediction
		if err := json.Unmarshal(w.Body.Bytes(), &ps); err == nil && len(ps) == 1 {
			p = ps[0]
		} else if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil || w.Code != 200 {
			t.Fatalf("%s %s: %d %.300s", method, path, w.Code, w.Body)
		}
		return p
	}
	numbered := regexp.MustCompile(`^(no forecast|no IBL estimate): internal error (\d+) \(its operator's log has the cause under this number\)$`)
	check := func(what, reason, cause string) {
		m := numbered.FindStringSubmatch(reason)
		if m == nil {
			t.Errorf("%s: %q, want a numbered internal error", what, reason)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		want := "karnak: internal error " + m[2] + `: system "s1": ` + m[1] + ": " + cause
		for _, l := range logged {
			if strings.HasPrefix(l, want) {
				return
			}
		}
		t.Errorf("%s: no log line starting %q in %q", what, want, logged)
	}
	job := ask("GET", "/karnak/system/s1/job/1002/prediction/waittime.json", "")
	check("a waiting job's forecast", job.ForecastReason, "forecast: bad snapshot: machine size 64, but the nodes have 7 cores")
	hypo := ask("POST", "/karnak/waittime/prediction/?format=json", `{"cores":4,"wallTime":"01:00:00","locations":["normal@s1"]}`)
	check("a hypothetical job's forecast", hypo.ForecastReason, "forecast: bad snapshot: machine size 64, but the nodes have 7 cores")
	check("a hypothetical job's IBL estimate", hypo.IBLReason, "ibl: query has")
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(strings.Join(logged, "\n"), `: system "s1": no forecast recorded for the calibration: forecast: bad snapshot: machine size 64`) {
		t.Errorf("the recording's failure is not logged: %q", logged)
	}
}
