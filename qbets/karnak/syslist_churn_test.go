package karnak

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"testing"
)

// The sorted names the list of systems pages by stay the systems' own
// names, in byte order, while systems are added, dropped and rewound
// under concurrent readers paging the list (run under -race), and a
// service restarted from the store lists the same systems in the same
// order. Every page a reader gets is in strictly increasing order and
// follows the previous one (a page starts after the name the Link
// gave, whether or not that system is still there).
func TestSystemsListChurnAndRestart(t *testing.T) {
	n := 120
	if testing.Short() {
		n = 40
	}
	st := &MemStore{}
	s, err := NewServiceWith(st, func() int64 { return testNow }, Config{Rate: -1, MaxSystems: n})
	if err != nil {
		t.Fatal(err)
	}
	// Names whose byte order is not their case-folded or numeric one.
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("%s%d", []string{"a", "B", "a.b", "a-b", "a_b", "Z9"}[i%6], i)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	rng.Shuffle(n, func(i, j int) { names[i], names[j] = names[j], names[i] })
	h := s.Handler()
	var wg sync.WaitGroup
	stop := make(chan struct{})
	errs := make(chan string, 100)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				path, prevLast := "/karnak/system/status.json?limit=7", ""
				for pages := 0; path != ""; pages++ {
					if pages > n {
						errs <- "more pages than systems"
						return
					}
					w := httptest.NewRecorder()
					h.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
					if w.Code != 200 {
						errs <- fmt.Sprintf("%s: %d %.200s", path, w.Code, w.Body)
						return
					}
					got, _, _ := systemsOf(t, "json", w.Body.String())
					if _, err := strconv.Atoi(w.Header().Get("X-Total-Count")); err != nil {
						errs <- fmt.Sprintf("%s: X-Total-Count %q", path, w.Header().Get("X-Total-Count"))
					}
					for _, nm := range got {
						if nm <= prevLast {
							errs <- fmt.Sprintf("%s: %q after %q: not in increasing order", path, nm, prevLast)
						}
						prevLast = nm
					}
					path = ""
					if m := nextLink.FindStringSubmatch(w.Header().Get("Link")); m != nil {
						path = m[1]
					}
				}
			}
		}()
	}
	for i, name := range names {
		e := Event{Kind: "queue", System: name, Time: testNow - 3600, Queue: "q", Cores: 64, WallTime: 3600}
		if err := s.Ingest([]Event{e, {Kind: "submit", System: name, Job: 1, Time: testNow - 60, Queue: "q", Cores: 1, WallTime: 60}}); err != nil {
			t.Fatal(err)
		}
		switch i % 5 {
		case 3: // dropped: it leaves the list
			if err := s.Drop(names[i-1]); err != nil {
				t.Fatal(err)
			}
		case 4: // rewound to before its job: rebuilt, still listed
			if err := s.Rewind(names[i-3], testNow-120); err != nil {
				t.Fatal(err)
			}
		}
	}
	close(stop)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	s.mu.RLock()
	want := slices.Sorted(maps.Keys(s.systems))
	got := slices.Clone(s.names)
	s.mu.RUnlock()
	if len(want) != n-n/5 || !slices.Equal(got, want) {
		t.Fatalf("%d systems (want %d), names kept %q, want the systems' names in order %q", len(want), n-n/5, got, want)
	}
	// A restart from the store lists the same systems in the same order.
	again, err := NewServiceWith(st, func() int64 { return testNow }, Config{Rate: -1, MaxSystems: n})
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for path := "/karnak/system/status.json?limit=9"; path != ""; {
		w := httptest.NewRecorder()
		again.Handler().ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		got, _, _ := systemsOf(t, "json", w.Body.String())
		listed = append(listed, got...)
		path = ""
		if m := nextLink.FindStringSubmatch(w.Header().Get("Link")); m != nil {
			path = m[1]
		}
	}
	if !slices.Equal(listed, want) {
		t.Errorf("after a restart the list is %q, want %q", listed, want)
	}
}
