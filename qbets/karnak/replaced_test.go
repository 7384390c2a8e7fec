package karnak

import (
	"fmt"
	"net/http/httptest"
	"runtime"
	"sync"
	"testing"
	"weak"
)

// A system replaced by Drop or Rewind leaves nothing in the service's
// caches, even for a request that looked it up before the repair and
// answers after it: such a request's prediction (predCache.put) and queue
// charts (queueCharts) went into maps keyed by the old system, which the
// repair had already emptied of it, and stayed there for ever, holding the
// old system (its jobs, its predictors) alive: memory grew with every
// replacement a request raced. Here each of 200 replacements is raced
// so, in the order that loses (the request's cache writes after the
// repair): the caches hold the live system's entries only, and every old
// system is collected. Without the check of retired, both maps hold 200
// old systems and none is collected.
func TestReplacedSystemsLeaveNoCache(t *testing.T) {
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	feed := func() {
		t.Helper()
		if err := s.Ingest([]Event{
			{Kind: "queue", System: "r", Time: testNow - 600, Queue: "q", Cores: 8, WallTime: 3600},
			{Kind: "submit", System: "r", Job: 1, Time: testNow - 500, Queue: "q", Cores: 2, WallTime: 600},
		}); err != nil {
			t.Fatal(err)
		}
	}
	req := &PredictRequest{Cores: 1, WallTime: 60, Quantile: 95, Confidence: 90, Locations: []Location{{"r", "q"}}}
	const n = 200
	var olds []weak.Pointer[system]
	for i := range n {
		feed()
		old, err := s.lookup("r")
		if err != nil {
			t.Fatal(err)
		}
		olds = append(olds, weak.Make(old))
		var rerr error
		if i%2 == 0 {
			rerr = s.Drop("r")
		} else {
			rerr = s.Rewind("r", testNow-550) // keeps the queue: a new system of the same name
		}
		if rerr != nil {
			t.Fatal(rerr)
		}
		// The request that looked old up before the repair now writes
		// what it computed from it.
		old.mu.RLock()
		s.cache.put(predKey{old, old.gen, testNow / 60, reqKey{queue: "q", cores: 1, wall: 60, q: 95, c: 90}}, Prediction{System: "r"})
		old.mu.RUnlock()
		s.queueCharts(old, "q")
	}
	feed()
	if _, err := s.PredictHypothetical(req); err != nil {
		t.Fatal(err)
	}
	live, _ := s.lookup("r")
	s.queueCharts(live, "q")
	s.cache.mu.Lock()
	inCache := len(s.cache.m)
	s.cache.mu.Unlock()
	s.charts.mu.Lock()
	drawn := len(s.charts.drawn)
	s.charts.mu.Unlock()
	if inCache != 1 || drawn != 1 {
		t.Errorf("after %d replacements: the prediction cache holds %d systems, the charts %d queues, want 1 and 1 (the live system's)", n, inCache, drawn)
	}
	runtime.GC()
	runtime.GC()
	kept := 0
	for _, w := range olds {
		if w.Value() != nil {
			kept++
		}
	}
	runtime.KeepAlive(s) // the service, live, holds no replaced system
	if kept > 0 {
		t.Errorf("%d of %d replaced systems still in memory", kept, n)
	}
}

// The same, raced for real: readers ask for predictions and queue pages
// while the system is replaced 100 times (bounded: 4 readers, no
// network); the caches then hold at most the live system's entries.
func TestReplacedSystemsRaced(t *testing.T) {
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	feed := func() error {
		return s.Ingest([]Event{
			{Kind: "queue", System: "r", Time: testNow - 600, Queue: "q", Cores: 8, WallTime: 3600},
			{Kind: "submit", System: "r", Job: 1, Time: testNow - 500, Queue: "q", Cores: 2, WallTime: 600},
		})
	}
	if err := feed(); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				path := fmt.Sprintf("/karnak/waittime/predict.html?cores=%d&wallTime=60&loc=q%%40r", 1+(g+i)%4)
				if g%2 == 1 {
					path = "/karnak/system/r/queue/q/summary.html"
				}
				h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", path, nil))
			}
		}()
	}
	for range 100 {
		if err := s.Drop("r"); err != nil {
			t.Error(err)
			break
		}
		if err := feed(); err != nil {
			t.Error(err)
			break
		}
	}
	close(stop)
	wg.Wait()
	live, _ := s.lookup("r")
	s.cache.mu.Lock()
	for sys := range s.cache.m {
		if sys != live {
			t.Errorf("the prediction cache holds a replaced system")
			break
		}
	}
	s.cache.mu.Unlock()
	s.charts.mu.Lock()
	for k := range s.charts.drawn {
		if k.sys != live {
			t.Errorf("the charts hold a replaced system")
			break
		}
	}
	s.charts.mu.Unlock()
}
