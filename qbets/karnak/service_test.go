package karnak

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// testNow is the fixed service clock of the tests: a minute after the
// last test event (much later, QBETS's availability inference would
// rightly call the machine possibly down).
var testNow = func() int64 { e := testEvents(); return e[len(e)-1].Time + 60 }()

// testEvents is a small deterministic live feed on system "s1": queue
// "normal" (64 cores, 24 h) and "debug" (8 cores, 1 h); 120 jobs that
// started and ended (waits 60·(i mod 17) s, enough history for a QBETS
// bound), and 3 submitted alongside job 120 that are still waiting
// (for 7 minutes at testNow: many waits of the history are longer,
// so their conditional bounds exist).
func testEvents() []Event {
	evs := []Event{
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
			Event{Kind: "submit", System: "s1", Job: i, Time: t, Queue: q, Cores: 1 << (i % 4), WallTime: 600 * (1 + i%5), User: fmt.Sprint("u", i%3)},
			Event{Kind: "start", System: "s1", Job: i, Time: t + 60*(i%17)},
			Event{Kind: "end", System: "s1", Job: i, Time: t + 60*(i%17) + 300})
		if i == 120 {
			for k := int64(1001); k <= 1003; k++ {
				evs = append(evs, Event{Kind: "submit", System: "s1", Job: k, Time: t + k - 1000, Queue: "normal", Cores: 4, WallTime: 3600, User: "u1"})
			}
		}
		t += 60*(i%17) + 400
	}
	slices.SortStableFunc(evs, func(a, b Event) int { return cmp.Compare(a.Time, b.Time) })
	return evs
}

// newTestServer serves the test events at testNow, with the settings o
// (at most one; none: the defaults).
func newTestServer(t *testing.T, o ...Config) (*Service, *httptest.Server) {
	t.Helper()
	s, err := NewServiceWith(nil, func() int64 { return testNow }, append(o, Config{})[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Ingest(testEvents()); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return s, srv
}

func do(t *testing.T, method, url, ctype, body string) (int, string) {
	t.Helper()
	body = strings.ReplaceAll(body, "%NOW%", fmt.Sprint(testNow))
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// Every endpoint in both representations answers 200 with the expected
// content.
func TestEndpoints(t *testing.T) {
	_, srv := newTestServer(t)
	u := srv.URL + "/karnak"
	hypo := `{"cores": 4, "wallTime": "01:00:00", "within": 1800, "locations": ["normal@s1", "debug@s1"]}`
	text := "processors 4\nrequestedWallTime 01:00:00\nconfidence 95\nlocation s1 normal\n"
	for _, c := range []struct {
		method, path, ctype, body string
		want                      []string
	}{
		{"GET", "/system/status.txt", "", "", []string{"s1", "3"}},
		{"GET", "/system/status.json", "", "", []string{`"system":"s1"`, `"waiting":3`}},
		{"GET", "/system/s1/status.txt", "", "", []string{"normal", "debug"}},
		{"GET", "/system/s1/status.json", "", "", []string{`"queue":"debug"`, `"maxCores":8`}},
		{"GET", "/system/s1/queue/normal/summary.txt", "", "", []string{"1w", "mean wait"}},
		{"GET", "/system/s1/queue/all_jobs/summary.json", "", "", []string{`"window":"1h"`, `"window":"1w"`}},
		{"GET", "/system/s1/job/waiting.txt", "", "", []string{"1001", "1003"}},
		{"GET", "/system/s1/job/waiting.json", "", "", []string{`"job":1002`}},
		{"GET", "/system/s1/job/1002/prediction/waittime.txt?within=00:30:00", "", "", []string{"job 1002", "QBETS  waits at most", "IBL    waits", "within 00:30:00"}},
		{"GET", "/system/s1/job/1002/prediction/starttime.json?confidence=80&quantile=75", "", "", []string{`"job":1002`, `"confidence":80`, `"quantile":75`, `"ibl":{`}},
		// A queued job's answers are conditional on its wait so far, at
		// any pair of Config.Levels: 95/95 needs 59 waits at least as
		// long as its 7 minutes, and the queue has 52.
		{"GET", "/system/s1/job/1002/prediction/waittime.json?confidence=95&within=600", "", "", []string{`"qbetsReason":"no QBETS bound: 52 waits in queue normal's history are at least as long as this job's so far`, `"probWithin":`, `"conditional":true`, `"waited":418`}},
		{"GET", "/system/s1/job/1002/prediction/waittime.html?confidence=95&within=600", "", "", []string{"Probability of starting within 00:10:00 more", "given it has not started after 00:06:58", "Given that it has waited 00:06:58 already."}},
		{"GET", "/system/s1/job/1002/prediction/waittime.txt?confidence=95&within=600", "", "", []string{"probability of starting within 00:10:00 more, given it has waited 00:06:58: 0."}},
		{"GET", "/system/s1/job/1002/prediction/waittime.txt?confidence=80&within=600", "", "", []string{"no probability of starting within 00:10:00 more: the probability of starting within a time is answered at the confidences of the service's levels only (90% for a pair not among them; set by the operator: qserve -levels"}},
		{"GET", "/system/s1/job/1002/prediction/waittime.txt?within=00:30:00", "", "", []string{"waits at most", "more (95% quantile, 90% confidence, given it has waited 00:06:58)"}},
		{"GET", "/system/s1/job/1002/prediction/waittime.txt?confidence=80&quantile=50", "", "", []string{"no QBETS bound: the 50% quantile at 80% confidence is not among the quantile/confidence pairs this service answers, 95/90, 50/90", "(set by the operator: qserve -levels; karnak.Config.Levels)"}},
		{"POST", "/waittime/prediction/?format=json", "application/json", hypo, []string{`"queue":"normal"`, `"queue":"debug"`, `"probWithin"`}},
		{"POST", "/starttime/prediction/", "text/plain", text, []string{"normal@s1", "starts by", "95% interval"}},
		{"POST", "/events", "application/json", `{"kind":"submit","system":"s1","job":2000,"time":%NOW%,"queue":"debug","cores":2,"wallTime":60}`, []string{`"events":1`}},
		{"GET", "/stats.json", "", "", []string{"cacheHits"}},
	} {
		code, body := do(t, c.method, u+c.path, c.ctype, c.body)
		if code != 200 {
			t.Errorf("%s %s: %d %s", c.method, c.path, code, body)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s %s: %q not in\n%s", c.method, c.path, w, body)
			}
		}
		if strings.HasSuffix(c.path, ".json") || strings.Contains(c.path, "format=json") {
			var v any
			if err := json.Unmarshal([]byte(body), &v); err != nil {
				t.Errorf("%s: invalid JSON: %v", c.path, err)
			}
		}
	}
}

// A prediction has what the issue asks: the QBETS bound (120 waits ≥ the
// 59 needed), the probability of starting within t, and the IBL estimate
// with its interval; waits and starts agree.
func TestPredictionContent(t *testing.T) {
	s, _ := newTestServer(t)
	ps, err := s.PredictHypothetical(&PredictRequest{Cores: 4, WallTime: 3600, Confidence: 90, Quantile: 95, Within: 600, Locations: []Location{{"s1", "normal"}}})
	if err != nil {
		t.Fatal(err)
	}
	p := ps[0]
	if p.QBETS == nil || p.IBL == nil || p.ProbWithin == nil {
		t.Fatalf("missing parts: %+v", p)
	}
	// The normal queue's waits are 60·(i mod 17) ≤ 960 s: the 95% bound
	// lies in that range, and so does the estimate.
	if p.QBETS.Wait < 0 || p.QBETS.Wait > 960 || p.QBETS.Start != p.Now+p.QBETS.Wait {
		t.Errorf("QBETS %+v", *p.QBETS)
	}
	if p.IBL.Wait < 0 || p.IBL.Wait > 960 || !(p.IBL.HalfWidth >= 0) {
		t.Errorf("IBL %+v", *p.IBL)
	}
	if pw := *p.ProbWithin; pw < 0 || pw > 0.99 {
		t.Errorf("probWithin %v", pw)
	}
}

// Every bad request is a 4xx whose message names the field.
func TestErrors(t *testing.T) {
	_, srv := newTestServer(t)
	u := srv.URL + "/karnak"
	post := func(body string) (string, string, string, string) {
		return "POST", "/waittime/prediction/", "application/json", body
	}
	for _, c := range []struct {
		method, path, ctype, body string
		status                    int
		field                     string
	}{
		{"GET", "/system/nope/status.txt", "", "", 404, "system"},
		{"GET", "/system/s1/queue/nope/summary.txt", "", "", 404, "queue"},
		{"GET", "/system/s1/status.pdf", "", "", 404, "format"},
		{"GET", "/system/s1/job/77/prediction/waittime.txt", "", "", 404, "jobId"},
		{"GET", "/system/s1/job/x/prediction/waittime.txt", "", "", 400, "jobId"},
		{"GET", "/system/s1/job/1001/prediction/waittime.txt?confidence=9", "", "", 400, "confidence"},
		{"GET", "/system/s1/job/1001/prediction/waittime.txt?confidence=96", "", "", 400, "confidence"},
		{"GET", "/system/s1/job/1001/prediction/waittime.txt?quantile=100", "", "", 400, "quantile"},
		{"GET", "/system/s1/job/1001/prediction/waittime.txt?within=1:99:00", "", "", 400, "within"},
		{"GET", "/system/s1/job/1001/prediction/runtime.txt", "", "", 404, "prediction"},
	} {
		code, body := do(t, c.method, u+c.path, c.ctype, c.body)
		if code != c.status || !strings.Contains(body, c.field) {
			t.Errorf("%s %s: %d %q, want %d naming %q", c.method, c.path, code, body, c.status, c.field)
		}
	}
	for _, c := range []struct {
		body   string
		status int
		field  string
	}{
		{`{"cores": 4, "wallTime": 60, "locations": ["normal@s1"]`, 400, "malformed JSON"},
		{`{"cores": "four", "wallTime": 60, "locations": ["normal@s1"]}`, 400, "malformed JSON"},
		{`{"cores": 4, "wallTime": 60, "locations": ["normal@s1"], "extra": 1}`, 400, "extra"},
		{`{"wallTime": 60, "locations": ["normal@s1"]}`, 400, "cores"},
		{`{"cores": 0, "wallTime": 60, "locations": ["normal@s1"]}`, 400, "cores"},
		{`{"cores": 65, "wallTime": 60, "locations": ["normal@s1"]}`, 400, "cores"},
		{`{"cores": 9, "wallTime": 60, "locations": ["debug@s1", "nope@s1"]}`, 400, "locations[0] (debug@s1): cores: 9 exceeds"},
		{`{"cores": 9, "wallTime": 60, "locations": ["debug@s1", "nope@s1"]}`, 400, "locations[1] (nope@s1): queue"},
		{`{"cores": 4, "wallTime": 7200, "locations": ["debug@s1", "debug@nope"]}`, 400, "locations[0] (debug@s1): wallTime"},
		{`{"cores": 4, "wallTime": "25:00:00", "locations": ["normal@s1"]}`, 400, "wallTime"},
		{`{"cores": 4, "wallTime": "1h", "locations": ["normal@s1"]}`, 400, "wallTime"},
		{`{"cores": 4, "wallTime": 0, "locations": ["normal@s1"]}`, 400, "wallTime"},
		{`{"cores": 4, "wallTime": 60, "confidence": 5, "locations": ["normal@s1"]}`, 400, "confidence"},
		{`{"cores": 4, "wallTime": 60, "confidence": 99, "locations": ["normal@s1"]}`, 400, "confidence"},
		{`{"cores": 4, "wallTime": 60, "quantile": 0, "locations": ["normal@s1"]}`, 400, "quantile"},
		{`{"cores": 4, "wallTime": 60, "locations": []}`, 400, "locations"},
		{`{"cores": 4, "wallTime": 60, "locations": ["normal"]}`, 400, "locations[0]"},
		{`{"cores": 4, "wallTime": 60, "locations": ["normal@nope"]}`, 404, "system"},
		{`{"cores": 4, "wallTime": 60, "locations": ["nope@s1"]}`, 404, "queue"},
	} {
		m, p, ct, _ := post("")
		code, body := do(t, m, u+p, ct, c.body)
		if code != c.status || !strings.Contains(body, c.field) {
			t.Errorf("%s: %d %q, want %d naming %q", c.body, code, body, c.status, c.field)
		}
	}
	// Text form.
	for _, c := range []struct{ body, field string }{
		{"processors 4\nlocation s1 normal\n", "requestedWallTime"},
		{"processors four\nrequestedWallTime 1:00:00\nlocation s1 normal\n", "processors"},
		{"processors 4\nrequestedWallTime 1:00:00\nconfidence 100\nlocation s1 normal\n", "confidence"},
		{"processors 4\nrequestedWallTime 1:00:00\ncolour blue\n", "colour"},
		{"processors 4\nprocessors 5\n", "given twice"},
	} {
		code, body := do(t, "POST", u+"/waittime/prediction/", "text/plain", c.body)
		if code != 400 || !strings.Contains(body, c.field) {
			t.Errorf("%q: %d %q, want 400 naming %q", c.body, code, body, c.field)
		}
	}
	// Ingest.
	for _, c := range []struct{ body, field string }{
		{`{"kind":"submit"`, "malformed JSON"},
		{`{"kind":"launch","system":"s1","time":%NOW%}`, "kind"},
		{`{"kind":"submit","system":"s1","job":5000,"time":%NOW%,"queue":"nope","cores":1}`, "queue"},
		{`{"kind":"submit","system":"s1","job":5000,"time":%NOW%,"queue":"debug","cores":9}`, "cores"},
		{`{"kind":"submit","system":"s1","job":1001,"time":%NOW%,"queue":"debug","cores":1}`, "job"},
		{`{"kind":"start","system":"s1","job":42,"time":%NOW%}`, "job"},
		{`{"kind":"start","system":"s1","job":1001,"time":5}`, "time"},
		{`{"kind":"submit","system":"bad name","job":1,"time":5,"queue":"q","cores":1}`, "system"},
		{`[{"kind":"queue","system":"s2","time":500,"queue":"q","cores":4,"wallTime":60},{"kind":"submit","system":"s2","job":1,"time":600,"queue":"q","cores":1},{"kind":"start","system":"s2","job":1,"time":4}]`, "events[2].time"},
		{`[]`, "no events"},
	} {
		code, body := do(t, "POST", u+"/events", "application/json", c.body)
		if code != 400 || !strings.Contains(body, c.field) {
			t.Errorf("%s: %d %q, want 400 naming %q", c.body, code, body, c.field)
		}
	}
	// A rejected batch changed nothing: s2 was never created.
	if code, _ := do(t, "GET", u+"/system/s2/status.txt", "", ""); code != 404 {
		t.Errorf("rejected batch created system s2 (%d)", code)
	}
}

// A location that fails gets an error instead of a prediction (§2.3);
// the others are still answered, with status 200.
func TestPartialLocations(t *testing.T) {
	_, srv := newTestServer(t)
	body := `{"cores": 9, "wallTime": 60, "locations": ["normal@s1", "debug@s1", "normal@nope", "x@s1"]}`
	code, out := do(t, "POST", srv.URL+"/karnak/waittime/prediction/?format=json", "application/json", body)
	if code != 200 {
		t.Fatalf("%d %s", code, out)
	}
	var ps []Prediction
	if err := json.Unmarshal([]byte(out), &ps); err != nil {
		t.Fatal(err)
	}
	if len(ps) != 4 {
		t.Fatalf("%d answers for 4 locations: %s", len(ps), out)
	}
	if ps[0].Error != "" || ps[0].IBL == nil {
		t.Errorf("normal@s1 should be predicted: %+v", ps[0])
	}
	for i, want := range []string{"", "locations[1] (debug@s1): cores: 9 exceeds", "locations[2] (normal@nope): system", "locations[3] (x@s1): queue"} {
		if want != "" && (!strings.Contains(ps[i].Error, want) || ps[i].QBETS != nil || ps[i].IBL != nil) {
			t.Errorf("location %d: error %q, want it to contain %q and no prediction", i, ps[i].Error, want)
		}
	}
	code, out = do(t, "POST", srv.URL+"/karnak/starttime/prediction/", "text/plain", "processors 9\nrequestedWallTime 60\nlocation s1 normal\nlocation s1 debug\n")
	if code != 200 || !strings.Contains(out, "debug@s1: 9 cores, 00:01:00 requested\n  error  locations[1] (debug@s1): cores") || !strings.Contains(out, "normal@s1: 9 cores") {
		t.Errorf("text: %d\n%s", code, out)
	}
}

// FuzzDecodePredictRequest: decoding never panics, and what it accepts
// satisfies the §2.3 ranges.
func FuzzDecodePredictRequest(f *testing.F) {
	f.Add("application/json", `{"cores": 4, "wallTime": "01:00:00", "within": 1800, "locations": ["normal@s1"]}`)
	f.Add("application/json", `{"cores": 4, "wallTime": 60, "confidence": 95, "quantile": 50, "locations": ["a@b","c@d"]}`)
	f.Add("application/json", `{"cores": 4, "wallTime": 60, "locations": [{"System": "s1", "Queue": "normal"}, "q@s2", {"system": "s\u0032", "queue": "q"}]}`)
	f.Add("text/plain", "processors 4\nrequestedWallTime 01:00:00\nconfidence 80\nlocation s1 normal\n")
	f.Add("text/plain", "processors 4\nrequestedWallTime 1:0:0\nwithin 99\nquantile 5\nlocation s1 normal\nlocation s2 q\n")
	f.Fuzz(func(t *testing.T, ctype, body string) {
		r, err := decodePredictRequest(ctype, []byte(body))
		if err != nil {
			return
		}
		if r.Cores < 1 || r.WallTime < 1 || r.Confidence < 10 || r.Confidence > 95 || r.Quantile < 1 || r.Quantile > 99 ||
			r.Within < 0 || len(r.Locations) == 0 || len(r.Locations) > maxLocations {
			t.Fatalf("accepted out-of-range request %+v", r)
		}
	})
}

func TestDurations(t *testing.T) {
	for in, want := range map[string]int64{"01:00:00": 3600, "1:30": 90, "45": 45, "100:00:00": 360000} {
		if got, err := parseDuration(in); err != nil || got != want {
			t.Errorf("parseDuration(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "1:60", "a", "-5", "1:2:3:4", "1::2"} {
		if _, err := parseDuration(in); err == nil {
			t.Errorf("parseDuration(%q) accepted", in)
		}
	}
	if hms(90061) != "25:01:01" {
		t.Errorf("hms = %s", hms(90061))
	}
}

// With one experience the IBL interval is unbounded (-1 in JSON, "±
// unbounded" in text), never ±0.
func TestOneExperienceUnbounded(t *testing.T) {
	s, err := NewService(nil, func() int64 { return 1000 })
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Ingest([]Event{
		{Kind: "queue", System: "x", Time: 0, Queue: "q", Cores: 8, WallTime: 3600},
		{Kind: "submit", System: "x", Job: 1, Time: 10, Queue: "q", Cores: 2, WallTime: 600},
		{Kind: "start", System: "x", Job: 1, Time: 70},
	}); err != nil {
		t.Fatal(err)
	}
	ps, err := s.PredictHypothetical(&PredictRequest{Cores: 2, WallTime: 600, Confidence: 90, Quantile: 95, Locations: []Location{{"x", "q"}}})
	if err != nil {
		t.Fatal(err)
	}
	if p := ps[0]; p.IBL == nil || p.IBL.Neighbors != 1 || math.Abs(p.IBL.Wait-60) > 1e-9 || p.IBL.HalfWidth != -1 {
		t.Fatalf("IBL %+v, want 60 s from 1 neighbour, unbounded", p.IBL)
	}
	var b strings.Builder
	textPrediction(&b, &ps[0], false)
	if !strings.Contains(b.String(), "IBL    waits 00:01:00 ± unbounded (90% interval, 1 neighbour)") {
		t.Errorf("text:\n%s", b.String())
	}
}

// An empty IBL base says why it is empty: the hypothetical-job base until
// a job has started, the queued-job base until a job that a 5-minute
// snapshot saw waiting has started (job 1 started before the first one).
func TestEmptyBaseReasons(t *testing.T) {
	s, err := NewService(nil, func() int64 { return 1000 })
	if err != nil {
		t.Fatal(err)
	}
	evs := []Event{
		{Kind: "queue", System: "x", Time: 0, Queue: "q", Cores: 8, WallTime: 3600},
		{Kind: "submit", System: "x", Job: 1, Time: 10, Queue: "q", Cores: 2, WallTime: 600},
	}
	if err := s.Ingest(evs); err != nil {
		t.Fatal(err)
	}
	hyp := &PredictRequest{Cores: 2, WallTime: 600, Confidence: 90, Quantile: 95, Locations: []Location{{"x", "q"}}}
	ps, err := s.PredictHypothetical(hyp)
	if err != nil {
		t.Fatal(err)
	}
	if want := "no IBL estimate: no job has started on this system yet"; ps[0].IBLReason != want {
		t.Errorf("before any start: %q, want %q", ps[0].IBLReason, want)
	}
	if err := s.Ingest([]Event{
		{Kind: "start", System: "x", Job: 1, Time: 70},
		{Kind: "submit", System: "x", Job: 2, Time: 100, Queue: "q", Cores: 2, WallTime: 600},
	}); err != nil {
		t.Fatal(err)
	}
	if ps, err = s.PredictHypothetical(hyp); err != nil || ps[0].IBL == nil {
		t.Fatalf("after a start: %v, %+v", err, ps)
	}
	p, err := s.PredictJob("x", 2, 95, 90, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := "no IBL estimate: no job seen waiting at a 5-minute snapshot has started yet"; p.IBL != nil || p.IBLReason != want {
		t.Errorf("queued job: %+v %q, want %q", p.IBL, p.IBLReason, want)
	}
}
