package karnak

import (
	"fmt"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// boundSystem is a service whose system "s1" is at the forecast's bound:
// 1,000 jobs running on 1,024 cores and 999 waiting (2,000 with a
// hypothetical one), as BenchmarkForecastBound's.
func boundSystem(t *testing.T, cfg Config) *Service {
	t.Helper()
	now := int64(fcT0 + 10000)
	svc, err := NewServiceWith(nil, func() int64 { return now }, cfg)
	if err != nil {
		t.Fatal(err)
	}
	evs := []Event{{Kind: "queue", System: "s1", Queue: "q", Cores: 1024, WallTime: 86400, Time: fcT0}}
	// Submitted at one instant, then started: one calibration
	// simulation to ingest them, not one per submission.
	for i := range 1999 {
		evs = append(evs, Event{Kind: "submit", System: "s1", Queue: "q", Job: int64(i + 1), Cores: 1, WallTime: int64(600 + (i*7919)%36000), Time: fcT0 + 1, User: fmt.Sprint("u", i%50)})
	}
	for i := range 1000 {
		evs = append(evs, Event{Kind: "start", System: "s1", Job: int64(i + 1), Time: fcT0 + 2})
	}
	if err := svc.Ingest(evs); err != nil {
		t.Fatal(err)
	}
	return svc
}

// A hypothetical job of a new shape is charged the simulation it runs,
// in proportion to the jobs simulated (simulationCost: 20 tokens for
// 2,000 jobs), not one token: with a burst of 200, a client asking for a
// new shape at each request, by the JSON API or by the form, gets at most
// 10 simulations before its 429 (which says why, with Retry-After), and the
// same shape again, answered from the simulation already run, costs one
// token. Before, each simulation cost one token: 200 of them (some 2 s
// of CPU on this system) for a burst of 200.
func TestHypotheticalChargedBySimulation(t *testing.T) {
	readme, err := os.ReadFile("../../examples/qserve/README.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("counts one request more per %d jobs simulated: %d at the bound of %s\n  live jobs", simJobsPerToken, simulationCost(defaultForecastJobs), thousands(defaultForecastJobs)); !strings.Contains(string(readme), want) {
		t.Errorf("examples/qserve/README.md does not say the cost: %q", want)
	}
	const burst = 200
	for _, form := range []bool{false, true} {
		s := boundSystem(t, Config{Rate: 0.001, Burst: burst})
		srv := httptest.NewServer(s.Handler())
		sys, _ := s.lookup("s1")
		runs := func() int { sys.fc.mu.Lock(); defer sys.fc.mu.Unlock(); return sys.fc.runsForTests }
		before := runs()
		ask := func(cores int) (int, string, string) {
			if form {
				resp, out := doReq(t, "GET", fmt.Sprintf("%s/karnak/waittime/predict.html?cores=%d&wallTime=01:00:00&loc=q%%40s1", srv.URL, cores), "", "", "")
				return resp.StatusCode, out, resp.Header.Get("Retry-After")
			}
			resp, out := doReq(t, "POST", srv.URL+"/karnak/waittime/prediction/?format=json", "application/json", "",
				fmt.Sprintf(`{"cores": %d, "wallTime": "01:00:00", "locations": ["q@s1"]}`, cores))
			return resp.StatusCode, out, resp.Header.Get("Retry-After")
		}
		asked, code, out, retry := 0, 0, "", ""
		for asked < burst+10 {
			asked++
			if code, out, retry = ask(asked); code != 200 {
				break
			}
		}
		sims := runs() - before
		if cost := simulationCost(2000); sims*cost > burst || sims < 1 {
			t.Errorf("form %v: %d simulations of 2,000 jobs (%d tokens each) for a burst of %d tokens", form, sims, cost, burst)
		}
		if code != 429 || retry == "" || !strings.Contains(out, fmt.Sprintf("simulates the 2000 jobs of s1, and counts as %d requests", simulationCost(2000))) {
			t.Errorf("form %v: after %d shapes: %d (Retry-After %q) %.300s, want 429 saying what the simulation costs", form, asked, code, retry, out)
		}
		srv.Close()
	}
	s := boundSystem(t, Config{Rate: 0.001, Burst: burst})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	for i := range 150 { // 21 tokens, then 1 each: 170 of 200
		body := fmt.Sprintf(`{"cores": 8, "wallTime": "01:00:00", "within": %d, "locations": ["q@s1"]}`, i) // past the prediction cache
		if resp, out := doReq(t, "POST", srv.URL+"/karnak/waittime/prediction/?format=json", "application/json", "", body); resp.StatusCode != 200 {
			t.Fatalf("the same shape, request %d: %d %.200s, want it answered from the simulation already run", i+1, resp.StatusCode, out)
		}
	}
}

// A client that waits as its 429's Retry-After says is answered: the
// request it sends again pays again what it paid before the refusal (its
// own token, its other locations), so the wait covers that too. Before,
// Retry-After covered only the simulation's shortfall: at -rate 1
// -burst 30 a new shape at a system at the bound (1 + 20 tokens) was
// refused again after every wait, for ever (Retry-After 12, then 1, 1,
// 1, ...: the retry's own token left it one short). Bounded: a fake
// clock, no network, at most 10 retries a request.
func TestRetryAfterCoversTheRetry(t *testing.T) {
	s := boundSystem(t, Config{Rate: 1, Burst: 30})
	at := time.Unix(1e9, 0)
	s.limiter.now = func() time.Time { return at }
	h := s.Handler()
	// Shapes 1–4 name one location, 5–6 ten (9 tokens more, paid before
	// the simulation's 20: 30, the whole burst).
	for shape := 1; shape <= 6; shape++ {
		locs := `"q@s1"`
		if shape > 4 {
			locs = strings.Repeat(`"q@s1", `, 9) + locs
		}
		var waits []string
		for try := 0; ; try++ {
			if try == 10 {
				t.Fatalf("shape %d: refused 10 times, Retry-After %v", shape, waits)
			}
			w := httptest.NewRecorder()
			r := httptest.NewRequest("POST", "/karnak/waittime/prediction/?format=json",
				strings.NewReader(fmt.Sprintf(`{"cores": %d, "wallTime": "01:00:00", "locations": [%s]}`, shape, locs)))
			r.Header.Set("Content-Type", "application/json")
			h.ServeHTTP(w, r)
			if w.Code == 200 {
				break
			}
			ra, err := strconv.Atoi(w.Header().Get("Retry-After"))
			if w.Code != 429 || err != nil || ra < 1 {
				t.Fatalf("shape %d: %d (Retry-After %q) %s", shape, w.Code, w.Header().Get("Retry-After"), w.Body)
			}
			waits = append(waits, strconv.Itoa(ra))
			at = at.Add(time.Duration(ra) * time.Second)
		}
	}
}
