package karnak

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
)

// discard is a ResponseWriter that keeps only the status, so that a
// benchmark measures the handler and not a recorder.
type discard struct {
	h    http.Header
	code int
	n    int
}

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) WriteHeader(code int)        { d.code = code }
func (d *discard) Write(b []byte) (int, error) { d.n += len(b); return len(b), nil }

// benchService is a service fed the first 30,000 events of KTH (as the
// load test of examples/qserve), its clock a minute after the last one,
// and the ids of the jobs waiting then.
func benchService(b *testing.B, cfg Config) (*Service, []int64) {
	b.Helper()
	h, jobs, err := swf.ReadFile(tracetest.Path(b, tracetest.KTH))
	if err != nil {
		b.Fatal(err)
	}
	evs, _ := TraceEvents(h, jobs, "kth")
	evs = evs[:30000]
	now := evs[len(evs)-1].Time + 60
	s, err := NewServiceWith(nil, func() int64 { return now }, cfg)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < len(evs); i += 10000 {
		if err := s.Ingest(evs[i:min(i+10000, len(evs))]); err != nil {
			b.Fatal(err)
		}
	}
	sys, _ := s.lookup("kth")
	var waiting []int64
	for _, j := range sys.feat.Waiting() {
		waiting = append(waiting, j.ID)
	}
	if len(waiting) == 0 {
		b.Fatal("no waiting job")
	}
	return s, waiting
}

// BenchmarkHandler is the cost of one prediction request through the
// handler (no network): the load test's mix of hypothetical POSTs (28
// shapes: 1–64 cores, 10 min–12 h, with within) and queued-job GETs, with
// the prediction cache on (every shape hits after the first round) and
// off (every request computes its prediction: QBETS and a 10,000-experience
// IBL search).
//
//	go test ./qbets/karnak -run '^$' -bench Handler -benchmem
func BenchmarkHandler(b *testing.B) {
	for _, cached := range []bool{true, false} {
		// No rate limit: b.N requests come from one client (the default,
		// 100 a second, answered 429s once the burst was spent).
		s, waiting := benchService(b, Config{NoCache: !cached, Rate: -1})
		h := s.Handler()
		walls := []int{600, 3600, 4 * 3600, 12 * 3600}
		var posts [][]byte
		for c := range 7 {
			for _, w := range walls {
				posts = append(posts, fmt.Appendf(nil, `{"cores": %d, "wallTime": %d, "within": 1800, "locations": ["default@kth"]}`, 1<<c, w))
			}
		}
		var gets []string
		for _, id := range waiting {
			gets = append(gets, fmt.Sprintf("/karnak/system/kth/job/%d/prediction/waittime.json?within=01:00:00", id))
		}
		// run times the requests; n distinct ones are made once before,
		// so that with the cache on every timed request hits.
		run := func(b *testing.B, n int, req func(i int) *http.Request) {
			w := &discard{h: http.Header{}}
			for i := range n {
				serve(b, h, w, req(i))
			}
			// A collection of the setup's garbage now rather than at a
			// time that depends on it (instruction counts).
			runtime.GC()
			timeRequests(b, h, w, req)
		}
		b.Run(fmt.Sprintf("hypothetical/cache=%v", cached), func(b *testing.B) {
			reqs := make([]*http.Request, len(posts))
			for i, p := range posts {
				reqs[i] = httptest.NewRequest("POST", "/karnak/waittime/prediction/?format=json", nil)
				reqs[i].Header.Set("Content-Type", "application/json")
				_ = p
			}
			body := &bytes.Reader{}
			run(b, len(reqs), func(i int) *http.Request {
				r := reqs[i%len(reqs)]
				body.Reset(posts[i%len(posts)])
				r.Body = io.NopCloser(body)
				return r
			})
		})
		b.Run(fmt.Sprintf("job/cache=%v", cached), func(b *testing.B) {
			reqs := make([]*http.Request, len(gets))
			for i, g := range gets {
				reqs[i] = httptest.NewRequest("GET", g, nil)
			}
			run(b, len(reqs), func(i int) *http.Request { return reqs[i%len(reqs)] })
		})
	}
}

func serve(b *testing.B, h http.Handler, w *discard, r *http.Request) {
	clear(w.h)
	w.code = 200
	h.ServeHTTP(w, r)
	if w.code != 200 {
		b.Fatalf("status %d", w.code)
	}
}

// timeRequests is BenchmarkHandler's timed loop, a function of its own
// so that an instruction count can be taken over it alone:
//
//	valgrind --tool=callgrind --dump-before='*karnak.timeRequests' --dump-after='*karnak.timeRequests' ...
func timeRequests(b *testing.B, h http.Handler, w *discard, req func(i int) *http.Request) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		serve(b, h, w, req(i))
	}
}

// BenchmarkWaitingList is one anonymous GET of the waiting jobs of a
// system with 40,000 of them, as JSON, text and a page: the first 1,000
// (maxListRows) and the last 1,000 (?offset=39000). Before the list had a
// bound, the JSON and the text listed all 40,000 (the page its first
// 1,000).
func BenchmarkWaitingList(b *testing.B) {
	const n = 40_000
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Rate: -1})
	if err != nil {
		b.Fatal(err)
	}
	evs := []Event{{Kind: "queue", System: "big", Time: testNow - 3600, Queue: "q", Cores: 64, WallTime: 86400}}
	for j := 1; j <= n; j++ {
		evs = append(evs, Event{Kind: "submit", System: "big", Job: int64(j), Time: testNow - 3000, Queue: "q", Cores: 1 + int64(j%64), WallTime: 3600})
	}
	for i := 0; i < len(evs); i += 10000 {
		if err := s.Ingest(evs[i:min(i+10000, len(evs))]); err != nil {
			b.Fatal(err)
		}
	}
	h := s.Handler()
	for _, q := range []string{"json", "txt", "html", "json?offset=39000"} {
		b.Run(q, func(b *testing.B) {
			req := httptest.NewRequest("GET", "/karnak/system/big/job/waiting."+q, nil)
			w := &discard{h: http.Header{}}
			h.ServeHTTP(w, req) // the forecast, once per state and minute
			b.ReportAllocs()
			for b.Loop() {
				w := &discard{h: http.Header{}}
				h.ServeHTTP(w, req)
				if w.code != 0 && w.code != http.StatusOK {
					b.Fatal(w.code)
				}
			}
		})
	}
}
