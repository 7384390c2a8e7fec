package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batchq/batchq/qbets/karnak"
)

// TestHTMLLoad measures the HTML queue page, charts included (issue
// target: ≥ 1,000 pages/s on loopback on 2 cores), while the rest of the
// browser test's trace (SDSC-SP2's first 4,000 jobs) is replayed at one trace hour per
// second. The charts are drawn once per queue and minute, so nearly every
// view renders the page's template around cached SVG; the statistics are
// computed per view as for the text and JSON pages. Bounded: 2 s (0.5 s
// in -short; QSERVE_HTML_LOAD=10s runs longer), at most maxRequests
// pages, 8 keep-alive clients (QSERVE_HTML_LOAD_WORKERS), on 127.0.0.1.
// QSERVE_LOAD_STRICT=1 fails below the target, which otherwise is logged
// with the load average, because the machine is shared.
func TestHTMLLoad(t *testing.T) {
	dur, workers := loadSettings(t, "QSERVE_HTML_LOAD", "QSERVE_HTML_LOAD_WORKERS", 8)
	evs, n, _ := browserTrace(t)
	var clock atomic.Int64 // the trace's time while it is fed, then the wall clock
	svc := newService(t, nil, karnak.Config{Now: func() int64 { return cmp.Or(clock.Load(), time.Now().Unix()) }, Rate: -1})
	ingestAsLive(t, svc, &clock, evs[:n])
	clock.Store(0)
	srv := httptest.NewServer(svc.Handler())
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	replayDone := make(chan error, 1)
	go func() { replayDone <- svc.ReplayEvents(ctx, evs, "sdsc", 3600, func(string, ...any) {}) }()

	page := srv.URL + "/karnak/system/sdsc/queue/q3/summary.html"
	tr := &http.Transport{MaxIdleConnsPerHost: workers, MaxConnsPerHost: workers}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	var issued atomic.Int64
	var mu sync.Mutex
	var lats []time.Duration
	var errs int
	var first string
	var bytes int64
	cpu0 := cpuTime()
	start := time.Now()
	deadline := start.Add(dur)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			var my []time.Duration
			var n int64
			bad := 0
			why := ""
			for time.Now().Before(deadline) && issued.Add(1) <= maxRequests {
				t0 := time.Now()
				resp, err := client.Get(page)
				if err != nil {
					bad++
					why = err.Error()
					continue
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				my = append(my, time.Since(t0))
				n += int64(len(b))
				if resp.StatusCode != 200 || !strings.Contains(string(b), `<figure class="chart"><svg`) {
					bad++
					why = fmt.Sprintf("%d %.200s", resp.StatusCode, b)
				}
			}
			mu.Lock()
			lats = append(lats, my...)
			errs += bad
			bytes += n
			if first == "" {
				first = why
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu := cpuTime() - cpu0
	cancel()
	if err := <-replayDone; err != nil && err != context.Canceled {
		t.Fatalf("replay: %v", err)
	}
	if len(lats) == 0 {
		t.Fatal("no request answered")
	}
	slices.Sort(lats)
	rate := float64(len(lats)) / elapsed.Seconds()
	last, _ := svc.Last("sdsc")
	t.Logf("HTML queue page with charts, %d clients: %d pages (%.0f kB each) in %v = %.0f pages/s; latency p50 %v p99 %v max %v; replay at ×3600 up to %s; process CPU %v = %.0f µs per page (client + server + replay); load average %s",
		workers, len(lats), float64(bytes)/float64(len(lats))/1000, elapsed.Round(time.Millisecond), rate,
		lats[len(lats)/2], lats[len(lats)*99/100], lats[len(lats)-1], time.Unix(last.Event.Time, 0).UTC().Format("2006-01-02 15:04"),
		cpu.Round(time.Millisecond), float64(cpu.Microseconds())/float64(len(lats)), loadAvg())
	if errs > 0 {
		t.Fatalf("%d failed requests (first: %s)", errs, first)
	}
	if os.Getenv("QSERVE_LOAD_STRICT") == "1" && rate < 1000 {
		t.Errorf("below target: %.0f pages/s, want ≥ 1000", rate)
	}
}

// loadSettings reads a bounded load run's length (2 s, 0.5 s in -short)
// and client count from the environment variables named.
func loadSettings(t *testing.T, durVar, workersVar string, workers int) (time.Duration, int) {
	t.Helper()
	dur := map[bool]time.Duration{false: 2 * time.Second, true: 500 * time.Millisecond}[testing.Short()]
	var err error
	if v := os.Getenv(durVar); v != "" {
		if dur, err = time.ParseDuration(v); err != nil {
			t.Fatalf("%s: %v", durVar, err)
		}
	}
	if v := os.Getenv(workersVar); v != "" {
		if _, err := fmt.Sscan(v, &workers); err != nil || workers < 1 {
			t.Fatalf("%s: %q, want a count ≥ 1", workersVar, v)
		}
	}
	return dur, workers
}
