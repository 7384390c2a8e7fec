package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets/karnak"
	"github.com/batchq/batchq/swf"
)

// TestLoad measures prediction throughput and latency on loopback while a
// trace is being replayed into the service (with the SQLite store on, as
// in production). The first 30,000 events of KTH are ingested up front
// (so the queue has history); the replay then resumes from there at one
// trace hour per second (QSERVE_LOAD_SPEED=86400 for a day per second:
// ~370 events/s, so the prediction cache rarely hits). Clients mix 80%
// hypothetical predictions (POST, JSON, sizes 1–64 cores, 10 min–12 h)
// and 20% queued-job predictions (GET, a job waiting at the time), from
// 32 concurrent keep-alive clients (QSERVE_LOAD_WORKERS=n for n). The run
// is bounded: 2 s (0.5 s in -short) and at most maxRequests;
// QSERVE_LOAD=30s runs longer. QSERVE_LOAD_STRICT=1 fails below the
// target (5,000 requests/s, p99 < 20 ms), which otherwise is only
// logged, because the machine is shared with other work.
func TestLoad(t *testing.T) {
	dur := 2 * time.Second
	if testing.Short() {
		dur = 500 * time.Millisecond
	}
	if v := os.Getenv("QSERVE_LOAD"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("QSERVE_LOAD: %v", err)
		}
		dur = d
	}
	h, jobs, err := swf.ReadFile(tracetest.Path(t, tracetest.KTH))
	if err != nil {
		t.Fatal(err)
	}
	evs, _ := karnak.TraceEvents(h, jobs, "kth")
	const warm = 30000
	speed := 3600.0 // trace seconds per second: ~10 events/s on KTH
	if v := os.Getenv("QSERVE_LOAD_SPEED"); v != "" {
		if _, err := fmt.Sscan(v, &speed); err != nil {
			t.Fatalf("QSERVE_LOAD_SPEED: %v", err)
		}
	}
	workers := 32
	if v := os.Getenv("QSERVE_LOAD_WORKERS"); v != "" {
		if _, err := fmt.Sscan(v, &workers); err != nil || workers < 1 {
			t.Fatalf("QSERVE_LOAD_WORKERS: %q, want a count ≥ 1", v)
		}
	}
	for _, cached := range []bool{true, false} {
		t.Run(fmt.Sprintf("cache=%v", cached), func(t *testing.T) {
			st, err := OpenStore(filepath.Join(t.TempDir(), "load.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			svc, err := karnak.New(st, karnak.Config{NoCache: !cached, Rate: -1})
			if err != nil {
				t.Fatal(err)
			}
			if err := svc.Load(t.Context()); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < warm; i += 10000 {
				if err := svc.Ingest(evs[i:min(i+10000, warm)]); err != nil {
					t.Fatal(err)
				}
			}
			srv := httptest.NewUnstartedServer(svc.Handler())
			var conns atomic.Int64 // connections opened: keep-alive should hold it at the client count
			srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
				if s == http.StateNew {
					conns.Add(1)
				}
			}
			srv.Start()
			defer srv.Close()
			ctx, cancel := context.WithCancel(context.Background())
			replayDone := make(chan error, 1)
			go func() {
				replayDone <- svc.ReplayEvents(ctx, evs, "kth", speed, func(string, ...any) {})
			}()
			cpu0 := cpuTime()
			res := load(t, svc, srv.URL, dur, workers)
			cpu := cpuTime() - cpu0
			cancel()
			if err := <-replayDone; err != nil && err != context.Canceled {
				t.Fatalf("replay: %v", err)
			}
			last, _ := svc.Last("kth")
			applied := slices.Index(evs, last.Event) + 1
			t.Logf("speed ×%g, cache=%v, %d clients: %d requests in %v = %.0f req/s; latency p50 %v p99 %v max %v; %d queued jobs gone before their query (404); %d events replayed during the run; %s; %d connections; process CPU %v = %.0f µs per request (client + server + replay) = %.0f req/s per fully available core; load average %s",
				speed, cached, workers, res.n, res.elapsed.Round(time.Millisecond), res.rate(), res.p50, res.p99, res.max, res.gone, applied-warm, cacheStats(srv.URL), conns.Load(),
				cpu.Round(time.Millisecond), float64(cpu.Microseconds())/float64(max(res.n, 1)), float64(res.n)/cpu.Seconds(), loadAvg())
			if res.errs > 0 {
				t.Fatalf("%d failed requests (first: %s)", res.errs, res.firstErr)
			}
			if os.Getenv("QSERVE_LOAD_STRICT") == "1" && cached && (res.rate() < 5000 || res.p99 >= 20*time.Millisecond) {
				t.Errorf("below target: %.0f req/s (want ≥ 5000), p99 %v (want < 20 ms)", res.rate(), res.p99)
			}
		})
	}
}

// maxRequests bounds a load run in count (its duration bounds it in
// time): at the 10^4 requests/s a free 2-core machine allows, a 30 s run
// stays under it.
const maxRequests = 500_000

type loadResult struct {
	n, gone, errs int
	firstErr      string
	elapsed       time.Duration
	p50, p99, max time.Duration
}

func (r loadResult) rate() float64 { return float64(r.n) / r.elapsed.Seconds() }

func load(t *testing.T, svc *karnak.Service, url string, dur time.Duration, workers int) loadResult {
	tr := &http.Transport{MaxIdleConnsPerHost: workers, MaxConnsPerHost: workers}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	// Waiting job ids, refreshed as the replay moves on.
	var waiting atomic.Pointer[[]int64]
	refresh := func() {
		resp, err := http.Get(url + "/karnak/system/kth/job/waiting.json")
		if err != nil {
			return
		}
		defer resp.Body.Close()
		var js []struct{ Job int64 }
		if json.NewDecoder(resp.Body).Decode(&js) != nil {
			return
		}
		ids := make([]int64, len(js))
		for i, j := range js {
			ids[i] = j.Job
		}
		waiting.Store(&ids)
	}
	refresh()
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
				refresh()
			}
		}
	}()
	defer close(stop)

	var mu sync.Mutex
	var res loadResult
	var lats []time.Duration
	deadline := time.Now().Add(dur)
	var issued atomic.Int64 // bounded in count as well as in time
	start := time.Now()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 7))
			var my []time.Duration
			gone, errs := 0, 0
			first := ""
			walls := []int{600, 3600, 4 * 3600, 12 * 3600}
			for time.Now().Before(deadline) && issued.Add(1) <= maxRequests {
				var req *http.Request
				if ids := *waiting.Load(); r.IntN(5) == 0 && len(ids) > 0 {
					id := ids[r.IntN(len(ids))]
					req, _ = http.NewRequest("GET", fmt.Sprintf("%s/karnak/system/kth/job/%d/prediction/waittime.json?within=01:00:00", url, id), nil)
				} else {
					body := fmt.Sprintf(`{"cores": %d, "wallTime": %d, "within": 1800, "locations": ["default@kth"]}`, 1<<r.IntN(7), walls[r.IntN(len(walls))])
					req, _ = http.NewRequest("POST", url+"/karnak/waittime/prediction/?format=json", strings.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
				}
				t0 := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					errs++
					first = cmp.Or(first, err.Error())
					continue
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				my = append(my, time.Since(t0))
				switch {
				case resp.StatusCode == 200:
				case resp.StatusCode == 404 && strings.Contains(string(b), "jobId"):
					gone++
				default:
					errs++
					first = cmp.Or(first, fmt.Sprintf("%d %s", resp.StatusCode, b))
				}
			}
			mu.Lock()
			lats = append(lats, my...)
			res.gone += gone
			res.errs += errs
			res.firstErr = cmp.Or(res.firstErr, first)
			mu.Unlock()
		}()
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	res.n = len(lats)
	if res.n > 0 {
		slices.Sort(lats)
		res.p50, res.p99, res.max = lats[res.n/2], lats[res.n*99/100], lats[res.n-1]
	}
	return res
}

// cacheStats reads the prediction cache's counts from /karnak/stats.
func cacheStats(url string) string {
	resp, err := http.Get(url + "/karnak/stats.txt")
	if err != nil {
		return err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return strings.TrimSpace(string(b))
}

// cpuTime is the process's user + system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loadAvg is the 1-minute load average, the measure of how shared the
// machine was.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Fields(string(b))[0]
}
