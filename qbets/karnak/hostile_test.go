package karnak

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// doReq sends a request with a body of type ctype, a bearer token (none
// when "") and more headers as name, value pairs.
func doReq(t *testing.T, method, url, ctype, token, body string, header ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
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
	return resp, string(b)
}

// Events far from the clock are refused before they are stored, at once,
// and the service keeps answering; an event a few days ahead (within
// MaxSkew) after a long gap costs O(1), not one snapshot per 300 s.
func TestFarFutureRejected(t *testing.T) {
	s, srv := newTestServer(t)
	u := srv.URL + "/karnak"
	for _, tm := range []int64{testNow * 1000, math.MaxInt64, math.MaxInt64 - 1, 1 << 41, testNow + week + 1, testNow + 86400, testNow + defaultSkew + 1} {
		t0 := time.Now()
		body := fmt.Sprintf(`{"kind":"submit","system":"s1","job":7000,"time":%d,"queue":"debug","cores":1}`, tm)
		code, out := do(t, "POST", u+"/events", "application/json", body)
		if code != 400 || !strings.Contains(out, "events[0].time") {
			t.Errorf("time %d: %d %q, want 400 naming events[0].time", tm, code, out)
		}
		if d := time.Since(t0); d > time.Second {
			t.Errorf("time %d: refused in %v", tm, d)
		}
	}
	if code, out := do(t, "GET", u+"/system/s1/job/1002/prediction/waittime.json", "", ""); code != 200 {
		t.Fatalf("after the far-future events: %d %s", code, out)
	}
	// A system silent for a long time, then an event 5 minutes ahead of
	// the clock (allowed): applied at once.
	t0 := time.Now()
	gap := []Event{
		{Kind: "queue", System: "g", Time: 0, Queue: "q", Cores: 8, WallTime: 60},
		{Kind: "submit", System: "g", Job: 1, Time: 1, Queue: "q", Cores: 1},
		{Kind: "start", System: "g", Job: 1, Time: testNow + defaultSkew},
	}
	if err := s.Ingest(gap); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(t0); d > time.Second {
		t.Errorf("a gap of %d s took %v", testNow, d)
	}
	if last, ok := s.Last("g"); !ok || last.Event != gap[2] {
		t.Errorf("Last(g) = %+v, %v", last, ok)
	}
}

// A crash and restart (the store closed and reopened by a new service)
// after a far-future event was attempted: the event was never stored, so
// the restart rebuilds the same state, at once. A system poisoned by an
// event within MaxSkew but ahead of its real time is repaired by Rewind
// (admin token), and Drop forgets a system.
func TestRestartAfterHostileEvent(t *testing.T) {
	st := &MemStore{}
	admin := Token{Name: "ops", Secret: "admin-secret-0123456789", Admin: true}
	site := Token{Name: "site", Secret: "site-secret-0123456789", Systems: []string{"s1", "s2"}}
	cfg := Config{Tokens: []Token{admin, site}}
	a, err := NewServiceWith(st, func() int64 { return testNow }, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Ingest(testEvents()); err != nil {
		t.Fatal(err)
	}
	if err := a.Ingest([]Event{{Kind: "submit", System: "s1", Job: 9, Time: testNow * 1000, Queue: "debug", Cores: 1}}); err == nil {
		t.Fatal("far-future event accepted")
	}
	n := st.Len()
	r := &PredictRequest{Cores: 4, WallTime: 600, Confidence: 90, Quantile: 95, Within: 60, Locations: []Location{{"s1", "normal"}}}
	before, _ := a.PredictHypothetical(r)
	// Crash: a is abandoned; a new service opens the same store.
	t0 := time.Now()
	b, err := NewServiceWith(st, func() int64 { return testNow }, cfg)
	if err != nil {
		t.Fatal(err)
	}
	after, _ := b.PredictHypothetical(r)
	jb, _ := json.Marshal(before)
	ja, _ := json.Marshal(after)
	if string(ja) != string(jb) || st.Len() != n {
		t.Fatalf("restart differs (store %d → %d events):\n%s\n%s", n, st.Len(), jb, ja)
	}
	t.Logf("restart in %v", time.Since(t0))

	// An event 6 days ahead is refused; one at the edge of MaxSkew is
	// taken, and the real events after it are taken too (stored at its
	// time, and counted): no lockout, no repair needed. Before this
	// change the default skew was 7 days and every real event after such
	// an event was refused ("before the last event") until its date.
	srv := httptest.NewServer(b.Handler())
	defer srv.Close()
	u := srv.URL + "/karnak"
	post := func(tok, body string) (int, string) {
		resp, out := doReq(t, "POST", u+"/events", "application/json", tok, body)
		return resp.StatusCode, out
	}
	submit := func(job, at int64) string {
		return fmt.Sprintf(`{"kind":"submit","system":"s1","job":%d,"time":%d,"queue":"debug","cores":1}`, job, at)
	}
	if code, out := post(site.Secret, submit(7999, testNow+6*24*3600)); code != 400 || !strings.Contains(out, "qserve -max-skew") || !strings.Contains(out, "karnak.Config.MaxSkew") {
		t.Fatalf("6 days ahead: %d %s", code, out)
	}
	if code, out := post(site.Secret, submit(8000, testNow+defaultSkew)); code != 200 {
		t.Fatalf("poison: %d %s", code, out)
	}
	if code, out := post(site.Secret, submit(7000, testNow)); code != 200 {
		t.Fatalf("a real event after the poison: %d %s", code, out)
	}
	if _, out := doReq(t, "GET", u+"/stats.json", "", "", ""); !strings.Contains(out, `"eventsRaised":1`) {
		t.Fatalf("stats: %s", out)
	}
	// Rewind still takes a system back.
	real := submit(8001, testNow)
	rewind := fmt.Sprintf("%s/admin/system/s1/rewind?time=%d", u, testNow)
	if resp, out := doReq(t, "POST", rewind, "", site.Secret, ""); resp.StatusCode != 403 {
		t.Fatalf("rewind with a site token: %d %s", resp.StatusCode, out)
	}
	if resp, out := doReq(t, "POST", rewind, "", "", ""); resp.StatusCode != 401 {
		t.Fatalf("rewind without a token: %d %s", resp.StatusCode, out)
	}
	if resp, out := doReq(t, "POST", rewind, "", admin.Secret, ""); resp.StatusCode != 200 {
		t.Fatalf("rewind: %d %s", resp.StatusCode, out)
	}
	if code, out := post(site.Secret, real); code != 200 {
		t.Fatalf("real event after the rewind: %d %s", code, out)
	}
	if resp, out := doReq(t, "GET", u+"/system/s1/event/last.json", "", "", ""); resp.StatusCode != 200 || !strings.Contains(out, `"job":8001`) || strings.Contains(out, `"job":8000`) {
		t.Fatalf("last event: %d %s", resp.StatusCode, out)
	}
	// The rewound state is the one a restart rebuilds.
	c, err := NewServiceWith(st, func() int64 { return testNow }, cfg)
	if err != nil {
		t.Fatal(err)
	}
	x, _ := b.PredictHypothetical(r)
	y, _ := c.PredictHypothetical(r)
	jx, _ := json.Marshal(x)
	jy, _ := json.Marshal(y)
	if string(jx) != string(jy) {
		t.Fatalf("rewound and restarted differ:\n%s\n%s", jx, jy)
	}
	if resp, out := doReq(t, "POST", u+"/admin/system/s1/drop", "", admin.Secret, ""); resp.StatusCode != 200 {
		t.Fatalf("drop: %d %s", resp.StatusCode, out)
	}
	if resp, _ := doReq(t, "GET", u+"/system/s1/status.json", "", "", ""); resp.StatusCode != 404 || st.Len() != 0 {
		t.Fatalf("after drop: %d, %d events stored", resp.StatusCode, st.Len())
	}
}

// A retried batch (its acknowledgement lost) is acknowledged again with
// the same answer and stored once, also after a restart; the same id
// with other events is a conflict.
func TestRetriedBatch(t *testing.T) {
	st := &MemStore{}
	s, err := NewService(st, func() int64 { return testNow })
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	evs, _ := json.Marshal(testEvents())
	body := `{"batch": "site-a/1", "events": ` + string(evs) + `}`
	code1, ack1 := do(t, "POST", srv.URL+"/karnak/events", "application/json", body)
	n := st.Len()
	code2, ack2 := do(t, "POST", srv.URL+"/karnak/events", "application/json", body)
	if code1 != 200 || code2 != 200 || ack1 != ack2 || st.Len() != n {
		t.Fatalf("retry: %d %s / %d %s; stored %d then %d", code1, ack1, code2, ack2, n, st.Len())
	}
	// With the Idempotency-Key header instead.
	one := fmt.Sprintf(`[{"kind":"submit","system":"s1","job":7000,"time":%d,"queue":"debug","cores":1}]`, testNow)
	for range 2 {
		req, _ := http.NewRequest("POST", srv.URL+"/karnak/events", strings.NewReader(one))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", "site-a/2")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || st.Len() != n+1 {
			t.Fatalf("Idempotency-Key retry: %d, %d stored", resp.StatusCode, st.Len())
		}
	}
	// After a restart.
	s2, err := NewService(st, func() int64 { return testNow })
	if err != nil {
		t.Fatal(err)
	}
	if ack, err := s2.IngestBatch("site-a/1", testEvents()); err != nil || ack.Events != len(testEvents()) || st.Len() != n+1 {
		t.Fatalf("retry after restart: %+v %v, %d stored", ack, err, st.Len())
	}
	other := testEvents()[:3]
	if _, err := s2.IngestBatch("site-a/1", other); err == nil || statusOf(err) != 409 || !strings.Contains(err.Error(), "batch") {
		t.Fatalf("reused id: %v", err)
	}
}

// Tokens are required on the write path when configured and scoped to
// systems; reads stay open.
func TestTokensEnforced(t *testing.T) {
	site := Token{Name: "site", Secret: "site-secret-0123456789", Systems: []string{"s1"}}
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Tokens: []Token{site}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	evs, _ := json.Marshal(testEvents()[:2])
	s2 := strings.ReplaceAll(string(evs), `"s1"`, `"s2"`)
	for _, c := range []struct {
		token, body string
		code        int
		want        string
	}{
		{"", string(evs), 401, "authorization"},
		{"wrong-token-0123456789", string(evs), 401, "unknown token"},
		{site.Secret, s2, 403, "events[0].system"},
		{site.Secret, string(evs), 200, `"events":2`},
	} {
		resp, out := doReq(t, "POST", srv.URL+"/karnak/events", "application/json", c.token, c.body)
		if resp.StatusCode != c.code || !strings.Contains(out, c.want) {
			t.Errorf("token %q: %d %q, want %d naming %q", c.token, resp.StatusCode, out, c.code, c.want)
		}
	}
	if resp, _ := doReq(t, "GET", srv.URL+"/karnak/system/s1/status.json", "", "", ""); resp.StatusCode != 200 {
		t.Errorf("read without a token: %d", resp.StatusCode)
	}
	if _, err := New(nil, Config{Tokens: []Token{{Secret: "short"}}}); err == nil {
		t.Error("a 5-byte secret accepted")
	}
}

// Bounded inputs: a 7 MB field is refused before it is read whole (413);
// fields beyond their limits, sizes beyond 2^40, other content types, and
// the caps on systems, queues and live jobs answer 4xx naming the field.
func TestBoundedInputs(t *testing.T) {
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{MaxSystems: 2, MaxQueues: 2, MaxLiveJobs: 4})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Ingest(testEvents()); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	u := srv.URL + "/karnak/events"
	ev := func(extra string) string {
		return fmt.Sprintf(`{"kind":"submit","system":"s1","job":7000,"time":%d,"queue":"debug","cores":1%s}`, testNow, extra)
	}
	big := ev(`,"name":"` + strings.Repeat("x", 7<<20) + `"`)
	for _, c := range []struct {
		ctype, body string
		code        int
		want        string
	}{
		{"application/json", big, 413, "body"},
		{"application/json", ev(`,"name":"` + strings.Repeat("x", 257) + `"`), 400, "events[0].name"},
		{"application/json", ev(`,"user":"` + strings.Repeat("é", 200) + `"`), 400, "events[0].user"},
		{"application/json", strings.Replace(ev(""), `"cores":1`, `"cores":2199023255553`, 1), 400, "events[0].cores"},
		{"application/json", strings.Replace(ev(""), `"cores":1`, `"cores":1,"wallTime":9223372036854775807`, 1), 400, "events[0].wallTime"},
		// A queue on a start or an end is a name too (it was stored
		// unchecked, escapes and megabytes included, and written back
		// by the last event's text); the error quotes it clipped.
		{"application/json", fmt.Sprintf(`{"kind":"start","system":"s1","job":1001,"time":%d,"queue":"\u001b[31m%s"}`, testNow, strings.Repeat("x", 1<<20)), 400, "events[0].queue"},
		{"application/json", fmt.Sprintf(`{"kind":"end","system":"s1","job":1001,"time":%d,"queue":"a b"}`, testNow), 400, "events[0].queue"},
		{"application/json", fmt.Sprintf(`{"kind":"start","system":"%s","job":1,"time":%d}`, strings.Repeat("y", 1<<20), testNow), 400, "events[0].system"},
		{"text/plain", ev(""), 415, "Content-Type"},
		{"", ev(""), 415, "Content-Type"},
		{"application/json", fmt.Sprintf(`{"kind":"queue","system":"s1","time":%d,"queue":"q3","cores":1,"wallTime":60}`, testNow), 400, "(set by the operator: qserve -max-queues; karnak.Config.MaxQueues)"},
		{"application/json", fmt.Sprintf(`[{"kind":"queue","system":"n2","time":%[1]d,"queue":"q","cores":1,"wallTime":60},{"kind":"queue","system":"n3","time":%[1]d,"queue":"q","cores":1,"wallTime":60}]`, testNow), 403, "(set by the operator: qserve -max-systems; karnak.Config.MaxSystems)"},
		{"application/json", fmt.Sprintf(`[{"kind":"submit","system":"s1","job":7001,"time":%[1]d,"queue":"debug","cores":1},{"kind":"submit","system":"s1","job":7002,"time":%[1]d,"queue":"debug","cores":1}]`, testNow), 400, "(set by the operator: qserve -max-live-jobs; karnak.Config.MaxLiveJobs)"},
	} {
		resp, out := doReq(t, "POST", u, c.ctype, "", c.body)
		if resp.StatusCode != c.code || !strings.Contains(out, c.want) {
			t.Errorf("%.80s: %d %.200q, want %d naming %q", c.body, resp.StatusCode, out, c.code, c.want)
		}
		if len(out) > 1000 {
			t.Errorf("%.80s: an answer of %d bytes, want the value quoted clipped", c.body, len(out))
		}
	}
	if resp, out := doReq(t, "POST", srv.URL+"/karnak/waittime/prediction/", "application/xml", "", "<x/>"); resp.StatusCode != 415 {
		t.Errorf("xml prediction request: %d %s", resp.StatusCode, out)
	}
}

// The rate limit answers 429 with Retry-After; before Load the handler
// answers 503 with Retry-After.
func TestRateLimitAndNotReady(t *testing.T) {
	s, err := New(nil, Config{Rate: 1, Burst: 2, Now: func() int64 { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	resp, _ := doReq(t, "GET", srv.URL+"/karnak/system/status.json", "", "", "")
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("before Load: %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if err := s.Ingest(testEvents()); err == nil || statusOf(err) != 503 {
		t.Fatalf("Ingest before Load: %v", err)
	}
	if err := s.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	resp, _ = doReq(t, "GET", srv.URL+"/karnak/system/status.json", "", "", "")
	if resp.StatusCode != 200 {
		t.Fatalf("after Load: %d", resp.StatusCode)
	}
	resp, _ = doReq(t, "GET", srv.URL+"/karnak/system/status.json", "", "", "")
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("beyond the burst: %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
}

// FuzzDecodeEvents: decoding never panics; whatever it returns is
// bounded, and an event it returns that passes check has its fields
// within their limits.
func FuzzDecodeEvents(f *testing.F) {
	f.Add(`{"kind":"submit","system":"s1","job":1,"time":5,"queue":"q","cores":1}`)
	f.Add(`[{"kind":"queue","system":"s","time":0,"queue":"q","cores":4,"wallTime":60}]`)
	f.Add(`{"batch":"b","events":[{"kind":"end","system":"s","job":1,"time":9}]}`)
	f.Add(`{"kind":"start","system":"s","job":1,"time":9223372036854775807}`)
	f.Fuzz(func(t *testing.T, body string) {
		batch, evs, err := decodeEvents([]byte(body))
		if err != nil {
			if c := statusOf(err); c != 400 && c != 413 {
				t.Fatalf("status %d for %v", c, err)
			}
			return
		}
		if len(evs) == 0 || len(evs) > maxEvents || len(batch) > len(body) {
			t.Fatalf("%d events, batch %q", len(evs), batch)
		}
		for i := range evs {
			e := &evs[i]
			if e.check() == nil && (e.Time < 0 || e.Time > maxSpan || e.Cores > maxSpan || e.WallTime > maxSpan ||
				len(e.Name) > maxField || len(e.User) > maxField || len(e.Project) > maxField) {
				t.Fatalf("checked event out of bounds: %+v", e)
			}
		}
	})
}

// FuzzIngest: any body POSTed to the events resource of a running
// service answers a 2xx or 4xx (never 5xx, never a panic, never a hang),
// and the service still answers afterwards with sane statistics.
func FuzzIngest(f *testing.F) {
	f.Add(fmt.Sprintf(`{"kind":"submit","system":"s1","job":7000,"time":%d,"queue":"debug","cores":1}`, testNow))
	f.Add(fmt.Sprintf(`[{"kind":"start","system":"s1","job":1001,"time":%d}]`, testNow))
	f.Add(fmt.Sprintf(`{"batch":"x","events":[{"kind":"end","system":"s1","job":1002,"time":%d}]}`, testNow))
	f.Add(`[{"kind":"queue","system":"z","time":1,"queue":"q","cores":1099511627776,"wallTime":1099511627776},{"kind":"submit","system":"z","job":1,"time":2,"queue":"q","cores":1099511627776},{"kind":"start","system":"z","job":1,"time":3}]`)
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{MaxBackstep: 60, Rate: -1})
	if err != nil {
		f.Fatal(err)
	}
	if err := s.Ingest(testEvents()); err != nil {
		f.Fatal(err)
	}
	h := s.Handler()
	f.Fuzz(func(t *testing.T, body string) {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("POST", "/karnak/events", strings.NewReader(body))
		req.RemoteAddr = "127.0.0.1:1234" // without tokens, writes come from loopback
		req.Header.Set("Content-Type", "application/json")
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 || rec.Code < 200 {
			t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
		}
		for _, name := range s.systemNames() {
			st, qs := s.statusOf(s.systems[name])
			if st.Running < 0 || st.Waiting < 0 || st.UsedCores < 0 {
				t.Fatalf("system %s: %+v", name, st)
			}
			for _, q := range qs {
				if q.UsedCores < 0 || q.Running < 0 || q.Waiting < 0 {
					t.Fatalf("queue %+v", q)
				}
			}
		}
	})
}

// A hypothetical request naming every queue of one system costs one
// forward simulation, not one per queue: the simulation plays the
// system as one pool, so the queue does not enter it (until this change
// a request of 64 locations ran 64 simulations of up to
// MaxForecastJobs jobs each, 0.5 s of CPU bought with one anonymous
// request). The answers are the same as one location's.
func TestHypotheticalOneSimulationPerSystem(t *testing.T) {
	evs := []Event{}
	var locs []string
	for q := range 64 {
		evs = append(evs, Event{Kind: "queue", System: "big", Time: testNow - 3600, Queue: fmt.Sprint("q", q), Cores: 1024, WallTime: 86400})
		locs = append(locs, fmt.Sprintf(`"q%d@big"`, q))
	}
	for j := int64(1); j <= 400; j++ {
		evs = append(evs, Event{Kind: "submit", System: "big", Job: j, Time: testNow - 3000, Queue: "q0", Cores: 256, WallTime: 7200})
		if j <= 4 {
			evs = append(evs, Event{Kind: "start", System: "big", Job: j, Time: testNow - 3000})
		}
	}
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Ingest(evs); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	sys, _ := s.lookup("big")
	runs := func() int { sys.fc.mu.Lock(); defer sys.fc.mu.Unlock(); return sys.fc.runsForTests }
	before := runs()
	resp, out := doReq(t, "POST", srv.URL+"/karnak/waittime/prediction/?format=json", "application/json", "",
		`{"cores": 64, "wallTime": "01:00:00", "locations": [`+strings.Join(locs, ",")+`]}`)
	if resp.StatusCode != 200 {
		t.Fatalf("%d %.300s", resp.StatusCode, out)
	}
	if n := runs() - before; n != 1 {
		t.Errorf("a request for %d queues of one system ran %d simulations, want 1", len(locs), n)
	}
	var ps []Prediction
	if err := json.Unmarshal([]byte(out), &ps); err != nil || len(ps) != len(locs) {
		t.Fatalf("%d predictions (%v), want %d", len(ps), err, len(locs))
	}
	for _, p := range ps {
		if p.Forecast == nil || *p.Forecast != *ps[0].Forecast {
			t.Fatalf("%s: forecast %+v (%s), want %+v as q0's", p.Queue, p.Forecast, p.ForecastReason, ps[0].Forecast)
		}
	}
}

// A prediction for n locations takes n of the rate limit's tokens, not
// one: each location is a prediction computed (an IBL search, QBETS, a
// simulation), so a client at the default rate asked for 100 of them
// 100 times a second. One larger than the burst takes the bucket, and is
// answered (else it could never be).
func TestRateLimitCountsLocations(t *testing.T) {
	locs := func(n int) string {
		return `{"cores":4,"wallTime":"01:00:00","locations":[` + strings.TrimSuffix(strings.Repeat(`"normal@s1",`, n), ",") + `]}`
	}
	for _, c := range []struct {
		name string
		post func(u string) (*http.Response, string)
	}{
		{"json", func(u string) (*http.Response, string) {
			return doReq(t, "POST", u+"/karnak/waittime/prediction/?format=json", "application/json", "", locs(10))
		}},
		{"form", func(u string) (*http.Response, string) {
			return doReq(t, "GET", u+"/karnak/waittime/predict.html?cores=4&wallTime=01:00:00"+strings.Repeat("&loc=normal@s1", 10), "", "", "")
		}},
	} {
		_, srv := newTestServer(t, Config{Rate: 0.01, Burst: 10})
		if resp, out := c.post(srv.URL); resp.StatusCode != 200 {
			t.Fatalf("%s: 10 locations: %d %.200s", c.name, resp.StatusCode, out)
		}
		resp, out := doReq(t, "GET", srv.URL+"/karnak/system/status.json", "", "", "")
		if resp.StatusCode != 429 {
			t.Errorf("%s: after 10 locations with a burst of 10: %d %.100s, want 429", c.name, resp.StatusCode, out)
		}
	}
	_, srv := newTestServer(t, Config{Rate: 0.01, Burst: 10})
	if resp, out := doReq(t, "POST", srv.URL+"/karnak/waittime/prediction/?format=json", "application/json", "", locs(20)); resp.StatusCode != 200 {
		t.Fatalf("20 locations with a burst of 10: %d %.200s", resp.StatusCode, out)
	}
	resp, out := doReq(t, "POST", srv.URL+"/karnak/waittime/prediction/?format=json", "application/json", "", locs(20))
	if resp.StatusCode != 429 {
		t.Errorf("then 20 more: %d %.200s, want 429", resp.StatusCode, out)
	}
}

// A store written before a start's or an end's queue was checked may
// hold one that is not a name: the service still loads it (the queue,
// which a start or an end does not use, is ignored and counted: the
// count is how many the store holds, found again at each load), and
// answers as for the same events without it. With the clearing reverted,
// Load fails ("stored event 5: queue: ...") and the service never starts.
func TestLoadClearsUncheckedQueue(t *testing.T) {
	evs := []Event{
		{Kind: "queue", System: "s1", Time: testNow - 3600, Queue: "normal", Cores: 64, WallTime: 86400},
		{Kind: "submit", System: "s1", Job: 1, Time: testNow - 3000, Queue: "normal", Cores: 4, WallTime: 3600},
		{Kind: "submit", System: "s1", Job: 2, Time: testNow - 2900, Queue: "normal", Cores: 4, WallTime: 3600},
		{Kind: "start", System: "s1", Job: 1, Time: testNow - 2000},
		{Kind: "start", System: "s1", Job: 2, Time: testNow - 1900},
		{Kind: "end", System: "s1", Job: 1, Time: testNow - 1000},
	}
	clean, dirty := &MemStore{}, &MemStore{}
	for i, e := range evs {
		if err := clean.Append([]Record{{Event: e}}); err != nil {
			t.Fatal(err)
		}
		switch i {
		case 4:
			e.Queue = "\x1b[31m" + strings.Repeat("x", 1000)
		case 5:
			e.Queue = "a b"
		}
		if err := dirty.Append([]Record{{Event: e}}); err != nil {
			t.Fatal(err)
		}
	}
	a, err := NewServiceWith(clean, func() int64 { return testNow }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewServiceWith(dirty, func() int64 { return testNow }, Config{Rate: -1})
	if err != nil {
		t.Fatalf("a store holding a start and an end with unchecked queues: %v", err)
	}
	if n := b.queuesCleared.Load(); n != 2 {
		t.Errorf("%d queues cleared counted, want 2", n)
	}
	r := &PredictRequest{Cores: 4, WallTime: 600, Confidence: 90, Quantile: 95, Locations: []Location{{"s1", "normal"}}}
	pa, errA := a.PredictHypothetical(r)
	pb, errB := b.PredictHypothetical(r)
	ja, _ := json.Marshal(pa)
	jb, _ := json.Marshal(pb)
	if errA != nil || errB != nil || string(ja) != string(jb) {
		t.Errorf("the loads differ (%v, %v):\n%s\n%s", errA, errB, ja, jb)
	}
	srv := httptest.NewServer(b.Handler())
	defer srv.Close()
	if _, out := doReq(t, "GET", srv.URL+"/karnak/stats.json", "", "", ""); !strings.Contains(out, `"queuesCleared":2`) {
		t.Errorf("stats: %s, want queuesCleared 2", out)
	}
	// The store keeps them: a restart finds the same two, and the count
	// says it is the store's (the text said "cleared at load", as if
	// each restart cleared more).
	again, err := NewServiceWith(dirty, func() int64 { return testNow }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	if n := again.queuesCleared.Load(); n != 2 {
		t.Errorf("after a restart: %d queues counted, want the store's 2", n)
	}
	if _, out := doReq(t, "GET", srv.URL+"/karnak/stats.txt", "", "", ""); !strings.Contains(out, "in the store whose queue is not a name, found at load and ignored (they do not use it; stored before it was checked; each load finds again those not yet pruned): 2\n") {
		t.Errorf("stats: %q, want the count said to be the store's", out)
	}
	if _, out := doReq(t, "GET", srv.URL+"/karnak/system/s1/event/last.txt", "", "", ""); strings.Contains(out, "a b") || strings.Contains(out, "queue") {
		t.Errorf("the last event (an end, its queue cleared) is written back with a queue: %q", out)
	}
	// Rewind replays the store as Load does, and does not fail either.
	if err := b.Rewind("s1", testNow-1500); err != nil {
		t.Errorf("rewind: %v", err)
	}
}

// The simulation one hypothetical request shares among its queues
// (forecaster.hypo) answers only the same question: another user, whose
// waiting jobs' priority places the job elsewhere, or the same request
// after an event at the same clock, gets its own. Each case fails with
// its field (user, gen) taken out of the reuse's key.
func TestHypotheticalReuseKey(t *testing.T) {
	evs := []Event{
		{Kind: "queue", System: "p", Time: testNow - 3600, Queue: "a", Cores: 64, WallTime: 86400},
		{Kind: "queue", System: "p", Time: testNow - 3600, Queue: "b", Cores: 64, WallTime: 86400},
		{Kind: "submit", System: "p", Job: 1, Time: testNow - 3000, Queue: "a", Cores: 64, WallTime: 7200, User: "u0"},
		{Kind: "start", System: "p", Job: 1, Time: testNow - 2000},
		{Kind: "submit", System: "p", Job: 2, Time: testNow - 1500, Queue: "a", Cores: 64, WallTime: 7200, User: "hi", Priority: 100},
		{Kind: "submit", System: "p", Job: 3, Time: testNow - 1400, Queue: "a", Cores: 64, WallTime: 7200, User: "lo", Priority: 10},
	}
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Ingest(evs); err != nil {
		t.Fatal(err)
	}
	ask := func(user string) *ForecastPart {
		t.Helper()
		ps, err := s.PredictHypothetical(&PredictRequest{Cores: 64, WallTime: 600, Confidence: 90, Quantile: 95, User: user,
			Locations: []Location{{"p", "a"}, {"p", "b"}}})
		if err != nil || len(ps) != 2 || ps[0].Forecast == nil || ps[1].Forecast == nil {
			t.Fatalf("%v %+v", err, ps)
		}
		if *ps[0].Forecast != *ps[1].Forecast {
			t.Errorf("user %q: the queues of one pool differ: %+v %+v", user, ps[0].Forecast, ps[1].Forecast)
		}
		return ps[0].Forecast
	}
	hi, anon := ask("hi"), ask("")
	if hi.Start >= anon.Start {
		t.Errorf("the high-priority user's job starts at %d, an anonymous one's at %d: want it earlier (behind job 2 only)", hi.Start, anon.Start)
	}
	// An end at the same clock frees the machine: the same request is
	// asked again of the new state.
	if err := s.Ingest([]Event{{Kind: "end", System: "p", Job: 1, Time: testNow - 1400}}); err != nil {
		t.Fatal(err)
	}
	if after := ask(""); after.Start >= anon.Start {
		t.Errorf("after job 1 ended: start %d, before %d: want earlier", after.Start, anon.Start)
	}
}

// The request line is bounded on every route, not only the form's: the
// handler is served by any http.Server, whose default MaxHeaderBytes is
// 1 MB, and before this bound a 1 MB query on a page was copied into its
// three alternative links (a 3 MB answer, 39 MB allocated, 190 ms), a
// query of 300,000 parameters on a job's prediction page 6.4 MB and 86 MB,
// and a 1 MB system, queue or resource name came back whole in the 404.
// A value echoed in an error is quoted clipped.
func TestRequestLineBounded(t *testing.T) {
	_, srv := newTestServer(t, Config{Rate: -1})
	long := strings.Repeat("x", 1<<20)
	for _, p := range []string{
		"/karnak/system/s1/job/waiting.html?" + long,
		"/karnak/system/s1/status.html?q=" + long,
		"/karnak/system/s1/job/1001/prediction/waittime.html?" + strings.Repeat("a=&", 300),
		"/karnak/system/" + long + "/status.html",
		"/karnak/system/s1/queue/" + long + "/summary.txt",
		"/karnak/system/s1/job/1001/prediction/" + long,
		"/karnak/" + long,
		"/karnak/system/s1/job/" + long,
	} {
		resp, out := doReq(t, "GET", srv.URL+p, "", "", "")
		// (the message, in the format asked for: an .html path's is a page)
		if resp.StatusCode != http.StatusRequestURITooLong || len(message(out)) > 200 || len(out) > 2000 {
			t.Errorf("GET %.60s (%d bytes): %d, %d bytes %.100q, want a short 414", p, len(p), resp.StatusCode, len(out), out)
		}
	}
	if resp, out := doReq(t, "POST", srv.URL+"/karnak/waittime/prediction/?format="+long, "application/json", "", `{"cores":1,"wallTime":60,"locations":["normal@s1"]}`); resp.StatusCode != http.StatusRequestURITooLong {
		t.Errorf("POST with a 1 MB query: %d %.100q, want 414", resp.StatusCode, out)
	}
	mid := strings.Repeat("9", 30<<10) // under the bound: refused for what it is
	for _, c := range []struct{ p, want string }{
		{"/karnak/system/s1/job/1001/prediction/waittime.txt?within=" + mid, "within"},
		{"/karnak/system/s1/job/1001/prediction/waittime.txt?quantile=" + mid, "quantile"},
		{"/karnak/system/s1/job/1001/prediction/waittime.txt?confidence=" + mid, "confidence"},
		{"/karnak/system/s1/job/" + mid[:400] + "/prediction/waittime.txt", "jobId"},
		{"/karnak/system/" + mid[:400] + "/status.txt", "system"},
		{"/karnak/system/s1/queue/" + mid[:400] + "/summary.txt", "queue"},
		{"/karnak/system/s1/" + mid[:400], "is not a resource"},
		{"/karnak/system/s1/job/1001/prediction/" + mid[:400], "is not a prediction"},
		{"/karnak/system/s1/status." + mid[:400], "format"},
	} {
		resp, out := doReq(t, "GET", srv.URL+c.p, "", "", "")
		if resp.StatusCode/100 != 4 || !strings.Contains(out, c.want) || len(out) > 400 {
			t.Errorf("GET %.60s: %d, %d bytes %.100q, want a 4xx naming %s, its value clipped", c.p, resp.StatusCode, len(out), out, c.want)
		}
	}
	if resp, _ := doReq(t, "GET", srv.URL+"/karnak/waittime/predict.html?cores=1&wallTime=60"+strings.Repeat("&loc=normal%40s1", maxLocations), "", "", ""); resp.StatusCode != http.StatusOK {
		t.Errorf("the form with %d locations: %d, want 200", maxLocations, resp.StatusCode)
	}
}

// A queue's summary scans its last week of jobs (8 ms an anonymous
// request for 500,000 of them): it is computed once per queue, state and
// instant of the system's clock, however many clients ask, in whatever
// format, and again after an event.
func TestSummaryComputedOnce(t *testing.T) {
	s, srv := newTestServer(t, Config{Rate: -1})
	sys, err := s.lookup("s1")
	if err != nil {
		t.Fatal(err)
	}
	computed := func() int64 {
		sys.sums.mu.Lock()
		defer sys.sums.mu.Unlock()
		return sys.sums.computed
	}
	var first string
	for i := range 50 {
		for _, q := range []string{"normal", "all_jobs"} {
			resp, out := doReq(t, "GET", srv.URL+"/karnak/system/s1/queue/"+q+"/summary."+[]string{"json", "txt", "xml", "html"}[i%4], "", "", "")
			if resp.StatusCode != 200 {
				t.Fatalf("%s: %d %s", q, resp.StatusCode, out)
			}
			if i == 0 && q == "normal" {
				first = out
			}
		}
	}
	if n := computed(); n != 2 {
		t.Errorf("100 summaries of 2 queues at one state and instant: %d scans, want 2", n)
	}
	if _, out := doReq(t, "GET", srv.URL+"/karnak/system/s1/queue/normal/summary.json", "", "", ""); out != first {
		t.Errorf("the cached summary differs from the first:\n%s\n%s", out, first)
	}
	if err := s.Ingest([]Event{{Kind: "submit", System: "s1", Job: 9001, Time: testNow, Queue: "normal", Cores: 1, WallTime: 60}, {Kind: "start", System: "s1", Job: 9001, Time: testNow}}); err != nil {
		t.Fatal(err)
	}
	resp, out := doReq(t, "GET", srv.URL+"/karnak/system/s1/queue/normal/summary.json", "", "", "")
	if resp.StatusCode != 200 || computed() != 3 || out == first {
		t.Errorf("after a start: %d scans, want 3, and a new summary (%v)", computed(), out != first)
	}
}

// What a feed sends (user, project and job names: free text from a
// cluster's users) reaches a reader escaped in every format, and every
// answer, not only the pages and the errors, tells the browser not to
// guess its type (X-Content-Type-Options: nosniff): until this change a
// text, JSON or XML answer did not, and a browser that sniffs could take
// a text answer with markup in it for a page.
func TestFeedTextEscapedEverywhere(t *testing.T) {
	s, srv := newTestServer(t, Config{Rate: -1})
	evil := "<script>alert(1)</script>\x1b[31m]]>&amp;\u2028"
	if err := s.Ingest([]Event{{Kind: "submit", System: "s1", Job: 9100, Time: testNow, Queue: "normal", Cores: 1, WallTime: 60, User: evil, Project: evil, Name: evil}}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/karnak/system/s1/event/last", "/karnak/system/s1/job/waiting", "/karnak/system/s1/job/9100/prediction/waittime", "/karnak/system/s1/status", "/karnak/system/s1/queue/normal/summary", "/karnak/system/status", "/karnak/stats"} {
		for _, f := range []string{"txt", "json", "xml", "html"} {
			resp, out := doReq(t, "GET", srv.URL+p+"."+f, "", "", "")
			if resp.StatusCode != 200 {
				t.Fatalf("%s.%s: %d %s", p, f, resp.StatusCode, out)
			}
			if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("%s.%s: X-Content-Type-Options %q, want nosniff", p, f, got)
			}
			for _, raw := range []string{"<script", "\x1b", "]]>"} {
				if strings.Contains(out, raw) {
					t.Errorf("%s.%s: %q unescaped in %.200q", p, f, raw, out)
				}
			}
		}
	}
	resp, _ := doReq(t, "POST", srv.URL+"/karnak/waittime/prediction/?format=txt", "application/json", "", `{"cores":1,"wallTime":60,"locations":["normal@s1"]}`)
	if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("a hypothetical prediction: X-Content-Type-Options %q, want nosniff", got)
	}
}

// manyQueues declares systems of queues each, as a feed may up to the
// default limits.
func manyQueues(t *testing.T, s *Service, systems, queues int) {
	t.Helper()
	var evs []Event
	for i := range systems {
		for q := range queues {
			evs = append(evs, Event{Kind: "queue", System: fmt.Sprintf("sys%03d", i), Time: testNow, Queue: fmt.Sprintf("queue-%02d", q), Cores: 64, WallTime: 3600})
		}
	}
	if err := s.Ingest(evs); err != nil {
		t.Fatal(err)
	}
}

// The form's checkboxes are written by groupHTML byte for byte as its
// template writes them, checked or not, next to locations the service
// does not know (which the template writes; those that are not
// queue@system the form leaves out, TestFormEchoBounded).
func TestFormGroupsAsTemplate(t *testing.T) {
	s, _ := newTestServer(t, Config{Rate: -1})
	manyQueues(t, s, 3, 5)
	r := httptest.NewRequest("GET", "/karnak/waittime/predict.html?cores=1&wallTime=60&loc=normal%40s1&loc=queue-03%40sys001&loc=no.such_q-1%40nosys", nil)
	w := httptest.NewRecorder()
	s.predictPage(w, r)
	fast := w.Body.String()
	f := &predictForm{Errors: map[string]string{}}
	f.Systems, _ = s.locationChoices([]string{"normal@s1", "queue-03@sys001", "no.such_q-1@nosys"}, nil)
	var b strings.Builder
	for i := range f.Systems {
		b.WriteString(string(f.Systems[i].HTML))
		f.Systems[i].HTML = ""
	}
	if n := strings.Count(b.String(), `type="checkbox"`); n != 2+3*5 {
		t.Fatalf("groupHTML wrote %d checkboxes, want %d", n, 2+3*5)
	}
	p := &page{Title: "Predict a job's wait", Crumbs: []link{{"/karnak/system/status.html", "Systems"}}, Form: f}
	w = httptest.NewRecorder()
	s.renderPage(w, httptest.NewRequest("GET", "/karnak/waittime/predict.html", nil), 200, "predict", p)
	tmpl := w.Body.String()
	// (the request is answered, an error for the unknown location
	// beside the others' predictions: the fieldset has no error)
	i, j := strings.Index(tmpl, "<legend>Queues</legend>"), strings.Index(tmpl, "</fieldset>")
	k, l := strings.Index(fast, "<legend>Queues</legend>"), strings.Index(fast, "</fieldset>")
	if i < 0 || j < i || k < 0 || l < k {
		t.Fatalf("no location fieldset:\n%s", fast)
	}
	if got, want := fast[k:l], tmpl[i:j]; got != want {
		t.Errorf("the checkboxes differ from the template's:\n%s\nwant\n%s", got, want)
	}
	for _, v := range []string{`checked="checked"/> normal@s1`, `checked="checked"/> queue-03@sys001`, `value="no.such_q-1@nosys" checked="checked"/> no.such_q-1@nosys`} {
		if !strings.Contains(fast, v) {
			t.Errorf("the form lacks %q", v)
		}
	}
}

// The form at the default limits (256 systems of 64 queues) was 2.2 MB,
// every queue a checkbox (5.7 MB with names of 64 bytes): beyond
// formMaxChoices queues it is compact, the systems as checkboxes and the
// queues of those asked for, and still reaches every queue: Show queues
// lists a system's (kept listed by a hidden field as the user predicts),
// a system page's link lists its queues checked, and asking for every
// system lists formMaxChoices queues at most. Its cost is bounded per
// checkbox listed (the template's 30 µs a checkbox had made it 450 ms).
func TestFormCompactAtDefaultLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("declares 16,320 queues")
	}
	s, _ := newTestServer(t, Config{Rate: -1})
	manyQueues(t, s, 255, 64)
	get := func(query string) (int, string) {
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/karnak/waittime/predict.html"+query, nil))
		return w.Code, w.Body.String()
	}
	count := func(body, what string) int { return strings.Count(body, what) }
	code, body := get("")
	if code != 200 || count(body, `name="loc"`) != 0 || count(body, `name="sys"`) != 256 || len(body) > 64<<10 {
		t.Errorf("the empty form: %d, %d bytes, %d queues, %d systems; want 200, at most 64 KiB, 0 and 256", code, len(body), count(body, `name="loc"`), count(body, `name="sys"`))
	}
	t.Logf("the empty form at 256 systems of 64 queues: %d bytes", len(body))
	readme, err := os.ReadFile("../../examples/qserve/README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{fmt.Sprintf("Beyond %d queues in all the form is compact", formMaxChoices), fmt.Sprintf("lists the queues of those checked (%d at most;", formMaxChoices),
		fmt.Sprintf(" and is %d KB\n(`TestFormCompactAtDefaultLimits`)", (len(body)+500)/1000)} {
		if !strings.Contains(strings.ReplaceAll(string(readme), "\n", " "), strings.ReplaceAll(want, "\n", " ")) {
			t.Errorf("examples/qserve/README.md does not say %q", want)
		}
	}
	allocs := testing.AllocsPerRun(3, func() { get("") })
	if per := allocs / 256; per > 4 {
		t.Errorf("%.0f allocations for the form, %.1f a checkbox, want at most 4", allocs, per)
	}
	if code, body = get("?cores=4&wallTime=01:00:00&sys=sys007&show=queues"); code != 200 || count(body, `name="loc"`) != 64 ||
		!strings.Contains(body, `value="queue-05@sys007"`) || strings.Contains(body, `id="answers"`) || !strings.Contains(body, `name="sys" value="sys007"/>`) {
		t.Errorf("Show queues of sys007: %d, %d queues listed (answered: %v)", code, count(body, `name="loc"`), strings.Contains(body, `id="answers"`))
	}
	if code, body = get("?cores=4&wallTime=01:00:00&sys=sys007&loc=queue-05%40sys007"); code != 200 || !strings.Contains(body, `id="answers"`) ||
		count(body, `name="loc"`) != 64 || !strings.Contains(body, `value="queue-05@sys007" checked="checked"`) {
		t.Errorf("a prediction for queue-05@sys007: %d, %d queues listed (answered: %v)", code, count(body, `name="loc"`), strings.Contains(body, `id="answers"`))
	}
	var qs []string
	for q := range 64 {
		qs = append(qs, fmt.Sprintf("queue-%02d@sys100", q))
	}
	if code, body = get(strings.TrimPrefix(predictLink(qs...), "/karnak/waittime/predict.html")); code != 200 || count(body, `checked="checked"`) != 64 {
		t.Errorf("sys100's page's link: %d, %d queues checked, want 64", code, count(body, `checked="checked"`))
	}
	// Queues asked for of more systems than the bound lists: those of
	// the systems not listed are checked apart, not said unknown.
	many := "?cores=1&wallTime=60&show=queues"
	for i := range 20 {
		many += fmt.Sprintf("&loc=queue-00%%40sys%03d", i)
	}
	if code, body = get(many); code != 200 || count(body, `checked="checked"`) != 20 || strings.Contains(body, "not known to the service") ||
		!strings.Contains(body, "chosen, of systems not listed above") {
		t.Errorf("20 queues of 20 systems: %d, %d checked (unknown: %v)", code, count(body, `checked="checked"`), strings.Contains(body, "not known to the service"))
	}
	all := ""
	for i := range 255 {
		all += fmt.Sprintf("&sys=sys%03d", i)
	}
	if code, body = get("?show=queues" + all); code != 200 || count(body, `name="loc"`) > formMaxChoices || count(body, `name="loc"`) < formMaxChoices-64 {
		t.Errorf("every system shown: %d, %d queues listed, want at most %d", code, count(body, `name="loc"`), formMaxChoices)
	}
	// The systems asked for that the bound left out stay checked, so
	// that the user sees them (and can ask again): before, they came
	// back unchecked among the others, the choice silently dropped.
	if listed, left := count(body, `<input type="hidden" name="sys"`), count(body, `name="sys" value="sys`)-count(body, `<input type="hidden" name="sys"`); count(body, `checked="checked"`) != left || listed+left != 255 {
		t.Errorf("every system shown: %d listed, %d left out, %d of them checked", listed, left, count(body, `checked="checked"`))
	}
}

// The list of systems allocates nothing a system at the default
// limits (256 systems of 64 queues): it built and sorted every system's
// queue lines only to drop them, 282 allocations and 4.7 ms of CPU a
// request (a loaded 2-core machine).
func TestSystemsListCost(t *testing.T) {
	if testing.Short() {
		t.Skip("declares 16,320 queues")
	}
	s, _ := newTestServer(t, Config{Rate: -1})
	manyQueues(t, s, 255, 64)
	h := s.Handler()
	allocs := testing.AllocsPerRun(5, func() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", "/karnak/system/status.json", nil))
		if w.Code != 200 {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
	})
	if allocs > 64 {
		t.Errorf("the list of 256 systems: %.0f allocations, want at most 64 (none a system)", allocs)
	}
}

// A form with more queues checked than a query holds (each is a
// parameter: 256 at most) is the form again with its own error, which
// counts them and says the most, with the fields of the query's first
// part kept, not a bare 414 (fewer got the form's error: "120 queues
// chosen, at most 100"). A query far past every bound reads and keeps no
// more than one within them (bounded: 2 requests).
func TestFormTooManyQueues(t *testing.T) {
	_, srv := newTestServer(t, Config{Rate: -1})
	q := "?cores=7&wallTime=00:20:00" + strings.Repeat("&loc=normal%40s1", 300)
	resp, body := doReq(t, "GET", srv.URL+"/karnak/waittime/predict.html"+q, "", "", "")
	if resp.StatusCode != 414 || !strings.Contains(body, "<form") || !strings.Contains(body, "with 300 queues chosen: choose at most 100") ||
		!strings.Contains(body, `value="7"`) || strings.Contains(body, `id="answers"`) {
		t.Errorf("300 queues checked: %d %.400s, want 414 with the form and its error", resp.StatusCode, body)
	}
	resp, body = doReq(t, "GET", srv.URL+"/karnak/starttime/predict.html?cores=2&x="+strings.Repeat("a", 1<<20), "", "", "")
	if resp.StatusCode != 414 || !strings.Contains(body, "<form") || !strings.Contains(body, "too long for the service to read (query: longer than 65536 bytes)") || len(body) > 64<<10 {
		t.Errorf("a 1 MB query: %d, %d bytes %.300s, want 414 with the form, at most 64 KiB", resp.StatusCode, len(body), body)
	}
}

// The most a hostile query adds to the form: its fields clipped at
// maxEcho and maxLocations locations of two names (measured 43,222
// bytes at the worst, all of them at once).
const formEchoBudget = 48 << 10

// A reply is at most a constant and a bounded echo of its query. The
// form showed every value typed again whole and escaped ('"' is 5
// bytes; a location and a quantile twice): a 64 KiB query came back as
// 330 KB (one field) to 660 KB (100 locations), ten times its size. Now
// a field typed longer than maxEcho is refused and shown clipped, and a
// location that is not queue@system is left out, each with a note: the
// same query with values twice as long gets no longer an answer, and
// none is more than formEchoBudget over the empty form.
func TestFormEchoBounded(t *testing.T) {
	s, _ := newTestServer(t, Config{Rate: -1})
	get := func(q string) (int, string) {
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/karnak/waittime/predict.html"+q, nil))
		return w.Code, w.Body.String()
	}
	_, empty := get("")
	quotes := func(n int) string { return strings.Repeat(`"`, n) }
	field := func(name string) func(int) string {
		return func(n int) string { return "?cores=1&" + name + "=" + quotes(n) }
	}
	for _, c := range []struct {
		name string
		q    func(n int) string
		n    int // the query at n and at 2n bytes a value
		note string
	}{
		{"cores", func(n int) string { return "?cores=" + quotes(n) }, 30000, "bytes typed, at most 64 (shown clipped)"},
		{"wallTime", field("wallTime"), 30000, "bytes typed, at most 64 (shown clipped)"},
		{"quantile", field("quantile"), 30000, "bytes typed, at most 64 (shown clipped)"},
		{"confidence", field("confidence"), 30000, "bytes typed, at most 64 (shown clipped)"},
		{"within", field("within"), 30000, "bytes typed, at most 64 (shown clipped)"},
		{"locations", func(n int) string {
			q := "?cores=1"
			for i := range maxLocations {
				q += fmt.Sprintf("&loc=%03d", i) + quotes(n)
			}
			return q
		}, 300, "100 of the queues chosen are not queue@system and are left out of the form"},
	} {
		q1, q2 := c.q(c.n), c.q(2*c.n)
		if len(q2) > maxQuery {
			t.Fatalf("%s: a query of %d bytes, past the bound", c.name, len(q2))
		}
		code1, b1 := get(q1)
		code2, b2 := get(q2)
		t.Logf("%s: a %d-byte query answered in %d bytes, a %d-byte one in %d", c.name, len(q1), len(b1), len(q2), len(b2))
		if code1 != 400 || code2 != 400 || !strings.Contains(b2, c.note) {
			t.Errorf("%s: %d and %d, want 400 with the note %q", c.name, code1, code2, c.note)
		}
		if len(b2) > len(b1)+8 || len(b2) > len(empty)+formEchoBudget {
			t.Errorf("%s: values of %d bytes answered in %d bytes, of %d bytes in %d: want no longer, and at most %d over the empty form's %d",
				c.name, c.n, len(b1), 2*c.n, len(b2), formEchoBudget, len(empty))
		}
	}
	// Everything at once: each field at the clip, and 100 locations of
	// two 64-byte names, unknown to the service, shown again checked.
	q := ""
	for _, f := range []string{"cores", "wallTime", "quantile", "confidence", "within"} {
		q += "&" + f + "=" + quotes(maxEcho)
	}
	for i := range maxLocations {
		q += fmt.Sprintf("&loc=%s%04d@%s", strings.Repeat("q", 60), i, strings.Repeat("s", 64))
	}
	readme, err := os.ReadFile("../../examples/qserve/README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{fmt.Sprintf("a field of the form typed longer than %d bytes is refused and shown clipped", maxEcho),
		fmt.Sprintf("only up to %s bytes (`TestAltLinksBounded`)", thousands(maxAltQuery))} {
		if !strings.Contains(strings.ReplaceAll(string(readme), "\n", " "), want) {
			t.Errorf("examples/qserve/README.md does not say %q", want)
		}
	}
	code, b := get("?" + q[1:])
	t.Logf("every field at the clip and %d unknown locations: %d bytes over the empty form (%d)", maxLocations, len(b)-len(empty), len(empty))
	if code != 400 || strings.Count(b, `checked="checked"`) != maxLocations || len(b) > len(empty)+formEchoBudget {
		t.Errorf("every field at the clip and %d unknown locations: %d, %d checked, %d bytes: want 400, all checked, at most %d over the empty form's %d",
			maxLocations, code, strings.Count(b, `checked="checked"`), len(b), formEchoBudget, len(empty))
	}
}

// A page copied its whole query into its three alternative links
// (escaped: '"' is %22), and took any query: a 64 KiB one came back as a
// page of 590 KB, nine times its size. It copies at most maxAltQuery
// bytes, and says when it leaves the query out; a page's own parameters
// are still carried (?limit=), and the prediction page refuses a level
// longer than maxEcho (it shows them again in its form), which leading
// zeros made valid.
func TestAltLinksBounded(t *testing.T) {
	s, _ := newTestServer(t, Config{Rate: -1})
	get := func(p string) (int, string) {
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, httptest.NewRequest("GET", p, nil))
		return w.Code, w.Body.String()
	}
	junk := "?x=" + strings.Repeat(`"`, maxQuery-3)
	for _, p := range []string{"/karnak/system/status.html", "/karnak/system/s1/status.html", "/karnak/system/s1/queue/normal/summary.html",
		"/karnak/system/s1/job/waiting.html", "/karnak/system/s1/job/1001/prediction/waittime.html", "/karnak/system/s1/event/last.html", "/karnak/stats.html"} {
		_, plain := get(p)
		code, b := get(p + junk)
		if code != 200 || len(b) > len(plain)+200 || !strings.Contains(b, fmt.Sprintf("the links leave out this page&#39;s query: %d bytes, at most %d are copied", len(junk)-1, maxAltQuery)) {
			t.Errorf("%s with a %d-byte query: %d, %d bytes (%d without it), want 200, at most 200 more, and the note", p, len(junk), code, len(b), len(plain))
		}
	}
	if _, b := get("/karnak/system/s1/job/waiting.html?limit=1"); !strings.Contains(b, `href="/karnak/system/s1/job/waiting.txt?limit=1"`) {
		t.Error("the waiting list's links lost its ?limit=1")
	}
	zeros := strings.Repeat("0", maxEcho-1)
	if code, b := get("/karnak/system/s1/job/1001/prediction/waittime.html?quantile=" + zeros + "95"); code != 400 || !strings.Contains(b, "quantile: 65 bytes, at most 64") {
		t.Errorf("a quantile of 65 bytes: %d %.200q, want 400", code, b)
	}
	if code, _ := get("/karnak/system/s1/job/1001/prediction/waittime.html?quantile=" + zeros[1:] + "95"); code != 200 {
		t.Errorf("a quantile of 64 bytes: %d, want 200", code)
	}
}

// The compact form is bounded whatever the operator's limits: it listed
// every system as a checkbox (5,000 systems under MaxSystems 5,000: 498
// KB), and every queue of the first system asked for (a MaxQueues past
// formMaxChoices). It lists at most formMaxSystems systems besides those
// checked and formMaxChoices queues of that system, the ones asked for
// among them, and says how many it leaves out.
func TestFormBoundedAnyLimits(t *testing.T) {
	const systems, big = 1100, 700
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Rate: -1, MaxSystems: systems + 1, MaxQueues: big})
	if err != nil {
		t.Fatal(err)
	}
	var evs []Event
	for i := range systems {
		evs = append(evs, Event{Kind: "queue", System: fmt.Sprintf("sys%04d", i), Time: testNow, Queue: "q", Cores: 64, WallTime: 3600})
	}
	for q := range big {
		evs = append(evs, Event{Kind: "queue", System: "big", Time: testNow, Queue: fmt.Sprintf("queue-%03d", q), Cores: 64, WallTime: 3600})
	}
	if err := s.Ingest(evs); err != nil {
		t.Fatal(err)
	}
	get := func(query string) (int, string) {
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/karnak/waittime/predict.html"+query, nil))
		return w.Code, w.Body.String()
	}
	count := strings.Count
	code, body := get("")
	t.Logf("the empty form at %d systems: %d bytes", systems+1, len(body))
	if want := fmt.Sprintf("%d more systems are not listed here (at most %d are, by name)", systems+1-formMaxSystems, formMaxSystems); code != 200 ||
		count(body, `name="sys"`) != formMaxSystems || !strings.Contains(body, want) || len(body) > 64<<10 {
		t.Errorf("the empty form: %d, %d bytes, %d systems listed; want 200, at most 64 KiB, %d, and %q", code, len(body), count(body, `name="sys"`), formMaxSystems, want)
	}
	// Systems checked are listed beyond the bound, checked.
	if code, body = get("?show=queues&sys=sys1099&sys=sys1098"); code != 200 || count(body, `name="sys"`) > formMaxSystems+2 ||
		!strings.Contains(body, `value="q@sys1099"`) || !strings.Contains(body, `value="q@sys1098"`) {
		t.Errorf("two systems far down the list shown: %d, %d systems, their queues listed: %v", code, count(body, `name="sys"`), strings.Contains(body, `value="q@sys1099"`))
	}
	readme, err := os.ReadFile("../../examples/qserve/README.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("it lists at most %d systems besides those checked, and at most %d queues of a system", formMaxSystems, formMaxChoices); !strings.Contains(strings.ReplaceAll(string(readme), "\n", " "), want) {
		t.Errorf("examples/qserve/README.md does not say %q", want)
	}
	code, body = get("?show=queues&sys=big&loc=queue-699%40big")
	if want := fmt.Sprintf("%d queues of big are not listed (at most %d are)", big-formMaxChoices, formMaxChoices); code != 200 || count(body, `name="loc"`) != formMaxChoices ||
		!strings.Contains(body, want) || !strings.Contains(body, `value="queue-699@big" checked="checked"`) {
		t.Errorf("a system of %d queues shown: %d, %d queues listed (queue-699 checked: %v); want %d, %q", big, code, count(body, `name="loc"`),
			strings.Contains(body, `value="queue-699@big" checked="checked"`), formMaxChoices, want)
	}
}

// A hypothetical job's simulation is reused only for the same question
// at the same second of the system's clock (forecaster.hypo), not over a
// minute as the prediction cache is: the answer is not the one a second
// later shifted. Here 48 of 64 cores run until testNow+600 (their
// requested time) and a 64-core job waits for them: a 16-core job of
// 600 s submitted at testNow fits before that job's reservation and
// starts at once, and submitted 5 s later it does not, and waits 7,795 s
// (until the 64-core job's end). Reused from the
// first second (another request, here another within, which the cache
// keys apart), the second would have said 0. Reuse across a window
// would need every threshold of the schedule (each backfilling
// decision, each running job past its prediction, whose end moves with
// the clock) to hold: not cheaper to check than to simulate.
func TestHypotheticalNotReusedAcrossSeconds(t *testing.T) {
	now := int64(testNow)
	s, err := NewServiceWith(nil, func() int64 { return now }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Ingest([]Event{
		{Kind: "queue", System: "p", Time: testNow - 7200, Queue: "a", Cores: 64, WallTime: 86400},
		{Kind: "submit", System: "p", Job: 1, Time: testNow - 7000, Queue: "a", Cores: 48, WallTime: 3600},
		{Kind: "start", System: "p", Job: 1, Time: testNow - 3000},
		{Kind: "submit", System: "p", Job: 2, Time: testNow - 2000, Queue: "a", Cores: 64, WallTime: 7200},
	}); err != nil {
		t.Fatal(err)
	}
	ask := func(within int64) *ForecastPart {
		t.Helper()
		ps, err := s.PredictHypothetical(&PredictRequest{Cores: 16, WallTime: 600, Confidence: 90, Quantile: 95, Within: within, Locations: []Location{{"p", "a"}}})
		if err != nil || len(ps) != 1 || ps[0].Forecast == nil {
			t.Fatalf("%v %+v", err, ps)
		}
		return ps[0].Forecast
	}
	if f := ask(0); f.Wait != 0 {
		t.Fatalf("at testNow: wait %d, want 0 (the job backfills)", f.Wait)
	}
	now += 5
	if f := ask(600); f.Wait < 3600 || f.Start < now {
		t.Errorf("5 s later: wait %d, start %d: want the wait behind job 2 (hours), as a simulation at that second says", f.Wait, f.Start)
	}
}

// A hypothetical request's errors quote its values clipped, as every
// other error does: a text body's unknown key, a number that does not
// parse, a location without '@', a JSON wall time came back whole, and
// quoted (a control character is 4 bytes: a 64 KiB body of them, a
// 256 KB error); so did encoding/json's errors (a number of the wrong
// type, an unknown key) and a 415's Content-Type (its charset twice,
// quoted: a 60 KB header, a 240 KB error).
func TestPredictRequestErrorsClipped(t *testing.T) {
	_, srv := newTestServer(t, Config{Rate: -1})
	junk := strings.Repeat("\x01", 60<<10)
	for _, c := range []struct{ ctype, body, want string }{
		{"text/plain", junk + " 1\n", "is not a field"},
		{"text/plain", "nofield" + junk + " 1 2\n", "want 1 values"},
		{"text/plain", "processors " + junk + "\n", "processors"},
		{"text/plain", "quantile " + strings.Repeat("9", 60<<10) + "\n", "quantile"},
		{"application/json", `{"cores":1,"wallTime":60,"locations":["` + strings.Repeat(`\u0001`, 10<<10) + `"]}`, "want queue@system"},
		{"application/json", `{"cores":1,"wallTime":[` + strings.Repeat("1,", 30<<10) + `1],"locations":["normal@s1"]}`, "wallTime"},
		// encoding/json's own errors quote a number and an unknown key whole
		{"application/json", `{"cores":` + strings.Repeat("9", 60<<10) + `,"wallTime":60,"locations":["normal@s1"]}`, "into the field cores of type int64"},
		{"application/json", `{"cores":1,"wallTime":60,"locations":["normal@s1"],"x` + strings.Repeat("9", 60<<10) + `":1}`, "unknown field"},
		// the Content-Type is quoted in a 415, its charset twice
		{"text/plain; charset=\"" + strings.Repeat(`\"`, 30<<10) + `"`, "processors 1\n", "want application/json or text/plain"},
	} {
		resp, out := doReq(t, "POST", srv.URL+"/karnak/waittime/prediction/?format=txt", c.ctype, "", c.body)
		if resp.StatusCode/100 != 4 || !strings.Contains(out, c.want) || len(out) > 600 {
			t.Errorf("%.50s body of %d bytes: %d, %d bytes %.200q, want a short 4xx naming %q", c.ctype, len(c.body), resp.StatusCode, len(out), out, c.want)
		}
	}
}
