package karnak

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// peek is sys's series (tests).
func (c *charts) peek(sys *system) *sysSeries {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.series[sys]
}

// The samples are what the service answered, at the default levels, for
// a hypothetical job of the shape of each job sampled, right after its
// submission: the API's QBETS bound and IBL estimate then.
func TestChartSamplesArePredictionsAtSubmit(t *testing.T) {
	var clock atomic.Int64
	s, err := NewService(nil, func() int64 { return clock.Load() })
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		at        int64
		bound     float64
		est, half float64
		queue     string
	}
	var wants []want
	next := map[string]int64{}
	for _, e := range testEvents() {
		clock.Store(e.Time)
		if err := s.Ingest([]Event{e}); err != nil {
			t.Fatal(err)
		}
		if e.Kind != "submit" || e.Time < next[e.Queue] {
			continue
		}
		next[e.Queue] = e.Time - e.Time%predictEvery + predictEvery
		ps, err := s.PredictHypothetical(&PredictRequest{Cores: e.Cores, WallTime: e.WallTime, Quantile: defaultQuantile, Confidence: defaultConfidence,
			Locations: []Location{{"s1", e.Queue}}})
		if err != nil {
			t.Fatal(err)
		}
		w := want{at: ps[0].Now, queue: e.Queue, bound: -1, est: -1, half: -1}
		if ps[0].QBETS != nil {
			w.bound = float64(ps[0].QBETS.Wait)
		}
		if ps[0].IBL != nil {
			w.est, w.half = ps[0].IBL.Wait, ps[0].IBL.HalfWidth
		}
		wants = append(wants, w)
	}
	sys, _ := s.lookup("s1")
	ss := s.charts.peek(sys)
	got := map[string][]predSample{}
	for name, qs := range ss.queues {
		got[name] = qs.preds
	}
	bounds := 0
	for _, w := range wants {
		ps := got[w.queue]
		if len(ps) == 0 {
			t.Fatalf("queue %s: no sample for the submission at %d", w.queue, w.at)
		}
		p := ps[0]
		got[w.queue] = ps[1:]
		if p != (predSample{w.at, w.bound, w.est, w.half}) {
			t.Errorf("queue %s at %d: sample %+v, want %+v", w.queue, w.at, p, w)
		}
		if p.bound >= 0 {
			bounds++
		}
	}
	for q, rest := range got {
		if len(rest) > 0 {
			t.Errorf("queue %s: %d samples more than submissions sampled", q, len(rest))
		}
	}
	if bounds == 0 || len(wants) < 100 || wants[0].at != testEvents()[2].Time {
		t.Errorf("%d samples, %d with a bound: the feed should give both", len(wants), bounds)
	}
}

// The cores series add up (all_jobs is the sum of the queues) and match
// the state at the last sample.
func TestChartCores(t *testing.T) {
	s, _ := newTestServer(t)
	sys, _ := s.lookup("s1")
	ss := s.charts.peek(sys)
	all := ss.all.cores
	if len(all) < 100 {
		t.Fatalf("%d cores samples", len(all))
	}
	at := map[int64][2]int64{} // the queues' samples added up, by time
	for _, qs := range ss.queues {
		for _, c := range qs.cores {
			v := at[c.at]
			at[c.at] = [2]int64{v[0] + c.running, v[1] + c.waiting}
		}
	}
	for i, a := range all {
		if v := at[a.at]; v != [2]int64{a.running, a.waiting} {
			t.Errorf("sample %d: all_jobs %d/%d, queues add to %d/%d", i, a.running, a.waiting, v[0], v[1])
		}
	}
	// The last sample was taken after job 120 was submitted, when jobs
	// 1001–1003 (4 cores each) were waiting.
	last := ss.queues["normal"].cores[len(ss.queues["normal"].cores)-1]
	if last.waiting != 12 {
		t.Errorf("waiting cores of normal at the last sample: %d, want 12 (jobs 1001–1003)", last.waiting)
	}
}

// A gap of a year costs one sample, and a series keeps only a week.
func TestChartSeriesBounded(t *testing.T) {
	var clock atomic.Int64
	s, err := NewService(nil, func() int64 { return clock.Load() })
	if err != nil {
		t.Fatal(err)
	}
	clock.Store(1 << 30)
	ev := []Event{{Kind: "queue", System: "s", Time: 0, Queue: "q", Cores: 8, WallTime: 3600}}
	for i := int64(1); i <= 3000; i++ {
		t0 := i * 600
		if i > 1500 {
			t0 += 365 * 86400
		}
		ev = append(ev, Event{Kind: "submit", System: "s", Job: i, Time: t0, Queue: "q", Cores: 1},
			Event{Kind: "start", System: "s", Job: i, Time: t0 + 1}, Event{Kind: "end", System: "s", Job: i, Time: t0 + 2})
	}
	if err := s.Ingest(ev); err != nil {
		t.Fatal(err)
	}
	sys, _ := s.lookup("s")
	qs := s.charts.peek(sys).queues["q"]
	perWeek := chartWindow/coresEvery + 1
	if len(qs.cores) > perWeek || len(qs.preds) > chartWindow/predictEvery+1 {
		t.Errorf("%d cores and %d prediction samples, want at most a week's (%d, %d)", len(qs.cores), len(qs.preds), perWeek, chartWindow/predictEvery+1)
	}
	if qs.cores[0].at < qs.cores[len(qs.cores)-1].at-chartWindow || qs.preds[0].at < qs.preds[len(qs.preds)-1].at-chartWindow {
		t.Errorf("samples older than a week kept")
	}
}

// A chart is drawn once per queue and minute of the service clock:
// page views within the minute, and events, do not draw it again.
func TestChartCachedPerMinute(t *testing.T) {
	var clock atomic.Int64
	s, err := NewService(nil, func() int64 { return clock.Load() })
	if err != nil {
		t.Fatal(err)
	}
	clock.Store(testNow)
	if err := s.Ingest(testEvents()); err != nil {
		t.Fatal(err)
	}
	sys, _ := s.lookup("s1")
	draws := func() int64 {
		s.charts.mu.Lock()
		defer s.charts.mu.Unlock()
		return s.charts.draws
	}
	first := s.queueCharts(sys, "normal")
	for range 10 {
		if s.queueCharts(sys, "normal") != first {
			t.Fatal("the chart changed within the minute")
		}
	}
	if err := s.Ingest([]Event{{Kind: "submit", System: "s1", Job: 5000, Time: testNow, Queue: "normal", Cores: 1}}); err != nil {
		t.Fatal(err)
	}
	if s.queueCharts(sys, "normal") != first || draws() != 1 {
		t.Errorf("%d drawings within one minute, want 1", draws())
	}
	s.queueCharts(sys, "debug")
	clock.Add(60)
	if s.queueCharts(sys, "normal") == first || draws() != 3 {
		t.Errorf("%d drawings after a minute passed and another queue, want 3", draws())
	}
	// Dropping the system forgets its charts.
	if err := s.Drop("s1"); err != nil {
		t.Fatal(err)
	}
	s.charts.mu.Lock()
	n, m := len(s.charts.drawn), len(s.charts.series)
	s.charts.mu.Unlock()
	if n != 0 || m != 0 {
		t.Errorf("after Drop: %d charts and %d series kept", n, m)
	}
}

// The charts are well-formed SVG with a title and a description, no
// inline style, and a mark for every series; an empty queue says so.
func TestChartSVG(t *testing.T) {
	s, _ := newTestServer(t)
	sys, _ := s.lookup("s1")
	svg := string(s.queueCharts(sys, "normal"))
	for _, w := range []string{`<title id="waits-t">`, `<desc id="waits-d">`, `<title id="cores-t">`, `class="wait" d="M`, `class="bound" d="M`, `class="est" d="M`,
		`class="ci" d="M`, `class="running" d="M`, `class="waiting" d="M`, `role="img"`} {
		if !strings.Contains(svg, w) {
			t.Errorf("%q not in the chart", w)
		}
	}
	if strings.Contains(svg, "style=") {
		t.Error("inline style in the chart")
	}
	d := xml.NewDecoder(strings.NewReader("<div>" + svg + "</div>"))
	for {
		if _, err := d.Token(); err != nil {
			if !errors.Is(err, io.EOF) {
				t.Errorf("chart not well-formed: %v", err)
			}
			break
		}
	}
	if err := s.Ingest([]Event{{Kind: "queue", System: "s1", Time: testNow, Queue: "empty", Cores: 1, WallTime: 60}}); err != nil {
		t.Fatal(err)
	}
	if svg := string(s.queueCharts(sys, "empty")); !strings.Contains(svg, "no job submitted in this window yet") {
		t.Errorf("empty queue:\n%s", svg)
	}
}

// The all-jobs chart is drawn the same whatever the order in which the
// queues' series come out of their map: it gathered the samples queue by
// queue in that order, so samples of several queues at one time were
// drawn, and past maxDrawn thinned, in an order that changed from one
// drawing of the same state to the next (and from one service to
// another fed the same events).
func TestChartAllJobsOrder(t *testing.T) {
	s, err := NewService(nil, func() int64 { return testNow })
	if err != nil {
		t.Fatal(err)
	}
	const queues, samples = 6, 150 // 900 samples: thinned to maxDrawn
	var evs []Event
	for q := range queues {
		evs = append(evs, Event{Kind: "queue", System: "s1", Time: testNow - 7200, Queue: fmt.Sprintf("q%d", q), Cores: 8, WallTime: 3600})
	}
	if err := s.Ingest(evs); err != nil {
		t.Fatal(err)
	}
	sys, err := s.lookup("s1")
	if err != nil {
		t.Fatal(err)
	}
	s.charts.mu.Lock()
	ss := s.charts.seriesOf(sys)
	for q := range queues {
		qs := ss.queue(fmt.Sprintf("q%d", q))
		qs.preds = qs.preds[:0]
		for k := range samples { // every queue sampled at the same times
			qs.preds = append(qs.preds, predSample{at: testNow - 3000 + 20*int64(k), bound: float64(60*(q+1) + k), est: float64(30 * (q + 1)), half: float64(q)})
		}
	}
	s.charts.mu.Unlock()
	first := s.drawQueueCharts(sys, allJobs)
	if !strings.Contains(string(first), `class="bound" d="M`) {
		t.Fatalf("no bound drawn:\n%s", first)
	}
	for range 20 {
		if s.drawQueueCharts(sys, allJobs) != first {
			t.Fatal("two drawings of the all-jobs chart of one state differ")
		}
	}
}

func TestThin(t *testing.T) {
	xs := make([]int, 1000)
	for i := range xs {
		xs[i] = i
	}
	got := thin(xs, 7)
	if len(got) != 7 || got[0] != 0 || got[6] != 999 {
		t.Errorf("thin: %v", got)
	}
	if len(thin(xs[:5], 7)) != 5 {
		t.Error("thin shortened a short series")
	}
	for _, c := range []struct{ peak, step float64 }{{1, 1}, {7, 2}, {64, 20}, {1000, 200}, {1001, 500}} {
		if got := niceStep(c.peak); got != c.step {
			t.Errorf("niceStep(%v) = %v, want %v", c.peak, got, c.step)
		}
	}
}

// Pages and charts are read while events are ingested and the minute
// turns (run with -race).
func TestChartsDuringIngest(t *testing.T) {
	var clock atomic.Int64
	s, err := NewServiceWith(nil, func() int64 { return clock.Load() }, Config{MaxSkew: week})
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	evs := testEvents()
	clock.Store(evs[0].Time)
	if err := s.Ingest(evs[:10]); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	// At most perClient views each: 3 × 50 of at most 6 tokens stay
	// within the default burst of 1,000 (unbounded, the readers asked as
	// often as the ingest's pace allowed, and a slow ingest got 429s).
	const perClient = 50
	for _, path := range []string{"/karnak/system/s1/queue/normal/summary.html", "/karnak/system/s1/queue/all_jobs/summary.html",
		"/karnak/waittime/predict.html?cores=2&wallTime=600&loc=normal@s1&loc=debug@s1"} {
		wg.Go(func() {
			for range perClient {
				select {
				case <-done:
					return
				default:
				}
				w := httptest.NewRecorder()
				h.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
				if w.Code != 200 && w.Code != 404 && w.Code != 400 {
					t.Errorf("%s: %d %s", path, w.Code, w.Body)
					return
				}
			}
		})
	}
	for i := 10; i < len(evs); i += 7 {
		clock.Store(evs[min(i+7, len(evs))-1].Time)
		if err := s.Ingest(evs[i:min(i+7, len(evs))]); err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	wg.Wait()
}
