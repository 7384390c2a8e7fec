package karnak

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
)

// estimate is Slurm's answer for a job of cores and wall on queue q of
// s1, asked at at: a start wait seconds later.
func estimate(q string, cores, wall, at, wait int64) Event {
	return Event{Kind: "estimate", System: "s1", Queue: q, Cores: cores, WallTime: wall, Time: at, Start: at + wait}
}

// A hostile or mistaken estimate is rejected before it is stored, with
// the field named; the batch it came in is stored not at all.
func TestSlurmEstimateRejected(t *testing.T) {
	svc, _ := newTestServer(t)
	at := testNow - 30
	for _, c := range []struct {
		e    Event
		want string
	}{
		{Event{Kind: "estimate", System: "s1", Queue: "", Cores: 1, WallTime: 60, Time: at, Start: at}, "queue:"},
		{Event{Kind: "estimate", System: "s1", Queue: "a b", Cores: 1, WallTime: 60, Time: at, Start: at}, "queue:"},
		{Event{Kind: "estimate", System: "s1", Queue: "normal", Job: 1001, Cores: 1, WallTime: 60, Time: at, Start: at}, "queue, cores, wallTime:"},
		{Event{Kind: "estimate", System: "s1", Job: 99999, Time: at, Start: at}, "job: 99999 is not waiting"},
		{Event{Kind: "estimate", System: "s1", Job: 1, Time: at, Start: at}, "job: 1 is not waiting"}, // started
		{Event{Kind: "estimate", System: "s1", Job: 1001, Time: at}, "start:"},
		{estimate("normal", 0, 60, at, 0), "cores, wallTime:"},
		{estimate("normal", 1, 0, at, 0), "cores, wallTime:"},
		{estimate("normal", -5, 60, at, 0), "cores:"},
		{estimate("normal", 1<<50, 60, at, 0), "cores:"},
		{estimate("normal", 65, 60, at, 0), "cores: 65 exceeds queue"},
		{estimate("nope", 1, 60, at, 0), "queue: \"nope\" is not declared"},
		{Event{Kind: "estimate", System: "s1", Queue: "normal", Cores: 1, WallTime: 60, Time: at}, "start:"},
		{estimate("normal", 1, 60, at, -at-1), "start:"},
		{estimate("normal", 1, 60, at, maxSpan), "start:"},
		{Event{Kind: "submit", System: "s1", Job: 5000, Queue: "normal", Cores: 1, WallTime: 60, Time: at, Start: at}, "start:"},
		{estimate("normal", 1, 60, testNow+8*86400, 0), "time:"},
		{Event{Kind: strings.Repeat("x", 1000), System: "s1", Time: at}, "kind:"},
	} {
		good := estimate("normal", 2, 60, at, 10)
		err := svc.Ingest([]Event{good, c.e})
		if err == nil || !strings.Contains(err.Error(), "events[1]."+c.want) {
			t.Errorf("%+v: error %v, want events[1].%s", c.e, err, c.want)
		}
		if err != nil && len(err.Error()) > 400 {
			t.Errorf("error of %d bytes: %.100s…", len(err.Error()), err)
		}
	}
	if p := predictOne(t, svc, "normal", 1, 60); p.Slurm != nil {
		t.Errorf("a rejected batch left an estimate: %+v", p.Slurm)
	}
}

func predictOne(t *testing.T, svc *Service, q string, cores, wall int64) Prediction {
	t.Helper()
	ps, err := svc.PredictHypothetical(&PredictRequest{Cores: cores, WallTime: wall, Quantile: 95, Confidence: 90,
		Locations: []Location{{System: "s1", Queue: q}}})
	if err != nil {
		t.Fatal(err)
	}
	return ps[0]
}

// The answer shown is the smallest probed shape at least as large as the
// job, the latest answer for it, and none older than maxSlurmAge.
func TestSlurmEstimateChosen(t *testing.T) {
	svc, _ := newTestServer(t)
	at := testNow - 30
	var evs []Event
	for _, c := range []int64{1, 4, 16} {
		for _, w := range []int64{600, 3600} {
			evs = append(evs, estimate("normal", c, w, at-10, 1000*c+w))
		}
	}
	evs = append(evs, estimate("normal", 4, 3600, at, 7777)) // the latest for 4 × 1 h
	evs = append(evs, estimate("debug", 8, 3600, at, 5))
	if err := svc.Ingest(evs); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		q                string
		cores, wall      int64
		wantC, wantW, wW int64 // wW: the wait; wantC 0: none
	}{
		{"normal", 1, 60, 1, 600, 1600},
		{"normal", 1, 600, 1, 600, 1600},
		{"normal", 1, 601, 1, 3600, 4600},
		{"normal", 2, 3600, 4, 3600, 7777},
		{"normal", 5, 60, 16, 600, 16600},
		{"normal", 17, 60, 0, 0, 0},  // more cores than any probe
		{"normal", 1, 7200, 0, 0, 0}, // longer than any probe
		{"debug", 3, 100, 8, 3600, 5},
	} {
		p := predictOne(t, svc, c.q, c.cores, c.wall)
		switch {
		case c.wantC == 0 && p.Slurm != nil:
			t.Errorf("%d × %d s on %s: %+v, want none", c.cores, c.wall, c.q, p.Slurm)
		case c.wantC == 0:
		case p.Slurm == nil:
			t.Errorf("%d × %d s on %s: none, want %d × %d", c.cores, c.wall, c.q, c.wantC, c.wantW)
		case p.Slurm.Cores != c.wantC || p.Slurm.WallTime != c.wantW || p.Slurm.Wait != c.wW || p.Slurm.Start-p.Slurm.At != c.wW:
			t.Errorf("%d × %d s on %s: %+v, want %d × %d waiting %d", c.cores, c.wall, c.q, p.Slurm, c.wantC, c.wantW, c.wW)
		}
	}
	// A start before the time asked is a wait of 0.
	if err := svc.Ingest([]Event{estimate("debug", 8, 3600, at, -100)}); err != nil {
		t.Fatal(err)
	}
	if p := predictOne(t, svc, "debug", 1, 60); p.Slurm == nil || p.Slurm.Wait != 0 || p.Slurm.Start != at-100 {
		t.Errorf("a start in the past: %+v", p.Slurm)
	}

	// An hour later (the feed stopped) nothing is shown.
	now := testNow
	late, err := NewServiceWith(nil, func() int64 { return now }, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := late.Ingest(append(testEvents(), evs...)); err != nil {
		t.Fatal(err)
	}
	now = at + maxSlurmAge
	if p := predictOne(t, late, "debug", 1, 60); p.Slurm == nil {
		t.Errorf("an estimate %d s old is not shown", maxSlurmAge)
	}
	now = at + maxSlurmAge + 60
	if p := predictOne(t, late, "debug", 1, 60); p.Slurm != nil {
		t.Errorf("an estimate older than %d s is shown: %+v", maxSlurmAge, p.Slurm)
	}
}

// A queue keeps at most maxSlurmShapes shapes, the latest answer for each,
// replacing the oldest; a restart rebuilds the same set from the store.
func TestSlurmEstimatesBounded(t *testing.T) {
	st := &MemStore{}
	svc, err := NewService(st, func() int64 { return testNow })
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Ingest(testEvents()); err != nil {
		t.Fatal(err)
	}
	at := testNow - 60
	for i := range int64(3 * maxSlurmShapes) {
		// Shapes 1..64 cores × 60 s, then each again, then 64 new ones
		// with a longer wall time (which replace the oldest).
		c, w := 1+i%maxSlurmShapes, int64(60)
		if i >= 2*maxSlurmShapes {
			w = 120
		}
		if err := svc.Ingest([]Event{estimate("normal", c, w, at+i, i)}); err != nil {
			t.Fatal(err)
		}
	}
	check := func(svc *Service, when string) {
		sys, _ := svc.lookup("s1")
		sys.mu.RLock()
		defer sys.mu.RUnlock()
		got := sys.queues["normal"].slurm
		if len(got) != maxSlurmShapes {
			t.Fatalf("%s: %d shapes kept, want %d", when, len(got), maxSlurmShapes)
		}
		for _, e := range got {
			if e.wall != 120 || e.start-e.at != 2*maxSlurmShapes+e.cores-1 {
				t.Errorf("%s: kept %+v, want only the latest 64 (120 s)", when, e)
			}
		}
	}
	check(svc, "live")
	again, err := New(st, Config{Now: func() int64 { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	if err := again.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	check(again, "restarted")
	if a, b := predictOne(t, svc, "normal", 3, 100), predictOne(t, again, "normal", 3, 100); a.Slurm == nil || *a.Slurm != *b.Slurm {
		t.Errorf("after a restart: %+v, before %+v", b.Slurm, a.Slurm)
	}
}

// Slurm's estimate is in every representation of a hypothetical answer,
// the XML parsing back into the JSON's values, and the form's answer page
// says which job Slurm was asked about and when.
func TestSlurmEstimateShown(t *testing.T) {
	svc, srv := newTestServer(t)
	at := testNow - 30
	if err := svc.Ingest([]Event{estimate("normal", 4, 3600, at, 5400)}); err != nil {
		t.Fatal(err)
	}
	// Through the write path, as a feed sends it.
	ev := fmt.Sprintf(`{"kind":"estimate","system":"s1","queue":"debug","time":%d,"cores":8,"wallTime":3600,"start":%d}`, at, at+60)
	if code, body := do(t, "POST", srv.URL+"/karnak/events", "application/json", ev); code != 200 {
		t.Fatalf("POST an estimate: %d %s", code, body)
	}
	hypo := `{"cores": 4, "wallTime": "01:00:00", "locations": ["normal@s1", "debug@s1"]}`
	_, js := do(t, "POST", srv.URL+"/karnak/waittime/prediction/?format=json", "application/json", hypo)
	_, xs := do(t, "POST", srv.URL+"/karnak/waittime/prediction/?format=xml", "application/json", hypo)
	var hj []Prediction
	var hx struct {
		Items []Prediction `xml:"prediction"`
	}
	if err := json.Unmarshal([]byte(js), &hj); err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal([]byte(xs), &hx); err != nil {
		t.Fatal(err)
	}
	want := SlurmPart{Wait: 5400, Start: at + 5400, At: at, Cores: 4, WallTime: 3600}
	if len(hj) != 2 || hj[0].Slurm == nil || *hj[0].Slurm != want || hj[1].Slurm == nil || hj[1].Slurm.Cores != 8 {
		t.Fatalf("JSON: %s", js)
	}
	if !sameValues(hj, hx.Items) || !strings.Contains(xs, "<slurm><wait>5400</wait>") {
		t.Errorf("JSON and XML differ:\n%s\n%s", js, xs)
	}
	_, txt := do(t, "POST", srv.URL+"/karnak/waittime/prediction/?format=txt", "application/json", hypo)
	if w := fmt.Sprintf("Slurm  waits 01:30:00 (sbatch --test-only for 4 cores, 01:00:00, asked at %s)", stamp(at)); !strings.Contains(txt, w) {
		t.Errorf("text lacks %q:\n%s", w, txt)
	}
	_, txt = do(t, "POST", srv.URL+"/karnak/starttime/prediction/?format=txt", "application/json", hypo)
	if w := "Slurm  starts at " + stamp(at+5400); !strings.Contains(txt, w) {
		t.Errorf("text lacks %q:\n%s", w, txt)
	}
	resp, page := get(t, srv.URL+"/karnak/waittime/predict.html?cores=4&wallTime=00:30:00&loc=normal@s1&loc=debug@s1", "")
	checkPage(t, "predict.html", resp, page)
	for _, w := range []string{
		`<dd class="slurm">waits <strong>01:30:00</strong>, so starts at ` + stamp(at+5400) + " UTC",
		"(sbatch --test-only for 4 cores, 01:00:00, asked at " + stamp(at) + " UTC",
	} {
		if !strings.Contains(page, w) {
			t.Errorf("the answer page lacks %q", w)
		}
	}
	// Without an estimate (a queue no feed probes) the page shows no
	// estimate of Slurm's, and the JSON has no "slurm".
	_, srv2 := newTestServer(t)
	_, page = get(t, srv2.URL+"/karnak/waittime/predict.html?cores=4&wallTime=00:30:00&loc=normal@s1", "")
	_, js = do(t, "POST", srv2.URL+"/karnak/waittime/prediction/?format=json", "application/json", hypo)
	if strings.Contains(page, `class="slurm"`) || strings.Contains(js, `"slurm"`) {
		t.Errorf("no feed, yet Slurm is shown:\n%s", js)
	}
}

// Slurm's expected start of a waiting job (squeue, sent as an estimate of
// the job) is on the job's prediction in every representation, while at
// most maxSlurmAge old.
func TestSlurmEstimateOfJob(t *testing.T) {
	now := testNow
	svc, err := NewServiceWith(nil, func() int64 { return now }, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Ingest(testEvents()); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(svc.Handler())
	defer srv.Close()
	at := testNow - 30
	if err := svc.Ingest([]Event{{Kind: "estimate", System: "s1", Job: 1002, Time: at, Start: at + 900}}); err != nil {
		t.Fatal(err)
	}
	p, err := svc.PredictJob("s1", 1002, 95, 90, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := (SlurmPart{Wait: 900, Start: at + 900, At: at, Cores: 4, WallTime: 3600}); p.Slurm == nil || *p.Slurm != want {
		t.Fatalf("job 1002: %+v, want %+v", p.Slurm, want)
	}
	if q, _ := svc.PredictJob("s1", 1001, 95, 90, 0); q.Slurm != nil {
		t.Errorf("job 1001 has no estimate, yet %+v", q.Slurm)
	}
	u := srv.URL + "/karnak/system/s1/job/1002/prediction/"
	_, js := get(t, u+"waittime.json", "")
	_, xs := get(t, u+"waittime.xml", "")
	var pj, px Prediction
	if json.Unmarshal([]byte(js), &pj) != nil || xml.Unmarshal([]byte(xs), &px) != nil || !sameValues(pj, px) || pj.Slurm == nil {
		t.Errorf("JSON and XML differ:\n%s\n%s", js, xs)
	}
	_, txt := get(t, u+"starttime.txt", "")
	if w := "Slurm  starts at " + stamp(at+900) + " (squeue's expected start, read at " + stamp(at) + ")"; !strings.Contains(txt, w) {
		t.Errorf("text lacks %q:\n%s", w, txt)
	}
	resp, page := get(t, u+"waittime.html", "")
	checkPage(t, "job page", resp, page)
	if w := `<dd class="slurm">waits <strong>00:15:00</strong>, so starts at ` + stamp(at+900) + ` UTC <span class="note">(squeue's expected start of the job, read at ` + stamp(at) + " UTC)"; !strings.Contains(page, w) {
		t.Errorf("the job page lacks %q", w)
	}
	now = at + maxSlurmAge + 1
	if p, _ := svc.PredictJob("s1", 1002, 95, 90, 0); p.Slurm != nil {
		t.Errorf("an estimate older than %d s is shown: %+v", maxSlurmAge, p.Slurm)
	}
}

// Estimates are out of band: one dated before the system's last event is
// taken, one dated later does not move the system's clock, and the latest
// received replaces the one held, whatever their times.
func TestSlurmEstimateOutOfBand(t *testing.T) {
	svc, _ := newTestServer(t, Config{MaxSkew: 2 * 86400})
	last, _ := svc.Last("s1")
	at := last.Event.Time
	evs := []Event{
		estimate("normal", 4, 3600, at+86400, 100), // a day ahead (a feed's clock wrong)
		estimate("normal", 4, 3600, at-50, 999),    // received later: replaces it
		estimate("debug", 1, 60, at-100000, 5),     // long before the last event: taken (and too old to show)
		{Kind: "estimate", System: "s1", Job: 1002, Time: at + 86400, Start: at + 9999},
		{Kind: "estimate", System: "s1", Job: 1002, Time: at + 10, Start: at + 70}, // received later
		// A job event at the clock is still in order.
		{Kind: "submit", System: "s1", Job: 5000, Time: at, Queue: "debug", Cores: 1, WallTime: 60},
	}
	if err := svc.Ingest(evs); err != nil {
		t.Fatal(err)
	}
	if l, _ := svc.Last("s1"); l.Event.Kind != "submit" || l.Event.Time != at {
		t.Errorf("the last event is %+v: an estimate moved the clock", l.Event)
	}
	if p := predictOne(t, svc, "normal", 4, 3600); p.Slurm == nil || p.Slurm.At != at-50 || p.Slurm.Wait != 999 {
		t.Errorf("normal: %+v, want the latest received", p.Slurm)
	}
	if p := predictOne(t, svc, "debug", 1, 60); p.Slurm != nil {
		t.Errorf("debug: %+v, want none (too old)", p.Slurm)
	}
	if p, _ := svc.PredictJob("s1", 1002, 95, 90, 0); p.Slurm == nil || p.Slurm.At != at+10 || p.Slurm.Start != at+70 {
		t.Errorf("job 1002: %+v, want the latest received", p.Slurm)
	}
}
