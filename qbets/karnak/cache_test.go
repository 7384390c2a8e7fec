package karnak

import (
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// The cache answers only for the state it was filled in, keeps only each
// system's current state, and ignores predictions computed for a state
// already left behind.
func TestPredCache(t *testing.T) {
	var c predCache
	a, b := &system{}, &system{}
	r := reqKey{queue: "q", cores: 4}
	c.put(predKey{a, 1, 10, r}, Prediction{Cores: 1})
	c.put(predKey{b, 7, 10, r}, Prediction{Cores: 2})
	if p, ok := c.get(predKey{a, 1, 10, r}); !ok || p.Cores != 1 {
		t.Fatalf("same state: %v %v", p, ok)
	}
	for _, k := range []predKey{{a, 2, 10, r}, {a, 1, 11, r}, {a, 1, 10, reqKey{queue: "q", cores: 5}}} {
		if _, ok := c.get(k); ok {
			t.Errorf("hit for another state or request: %+v", k)
		}
	}
	c.put(predKey{a, 2, 10, r}, Prediction{Cores: 3}) // newer state: the old one is dropped
	if len(c.m[a].m) != 1 || c.m[a].gen != 2 {
		t.Errorf("system a keeps %d entries of gen %d, want 1 of gen 2", len(c.m[a].m), c.m[a].gen)
	}
	c.put(predKey{a, 1, 12, r}, Prediction{Cores: 4}) // late, for an older state: ignored
	if p, ok := c.get(predKey{a, 2, 10, r}); !ok || p.Cores != 3 {
		t.Errorf("current state lost: %v %v", p, ok)
	}
	if p, ok := c.get(predKey{b, 7, 10, r}); !ok || p.Cores != 2 {
		t.Errorf("other system's state lost: %v %v", p, ok)
	}
	if c.hits != 3 || c.misses != 3 {
		t.Errorf("hits %d misses %d, want 3 and 3", c.hits, c.misses)
	}
}

// The cache holds at most cacheMax entries for every system together
// (until this change, cacheMax per system: a request names up to 100
// systems, and anonymous requests with distinct users could hold 16,384
// entries of each); a system asked about and then left alone does not
// keep the others out.
func TestPredCacheBounded(t *testing.T) {
	var c predCache
	systems := []*system{{}, {}, {}, {}}
	for i, sys := range systems {
		for j := range cacheMax {
			c.put(predKey{sys, 1, 10, reqKey{queue: "q", cores: int64(j + 1), user: strings.Repeat("u", 256)}}, Prediction{Cores: int64(i)})
		}
		held := 0
		for _, sc := range c.m {
			held += len(sc.m)
		}
		if held > cacheMax || held != c.n {
			t.Fatalf("after %d systems: %d entries held (counted %d), want at most %d", i+1, held, c.n, cacheMax)
		}
	}
	last := predKey{systems[3], 1, 10, reqKey{queue: "q", cores: 1, user: strings.Repeat("u", 256)}}
	if _, ok := c.get(last); !ok {
		t.Error("the system asked about last is not cached")
	}
	k := predKey{systems[0], 1, 10, reqKey{queue: "q", cores: 1}}
	c.put(k, Prediction{Cores: 9})
	if p, ok := c.get(k); !ok || p.Cores != 9 {
		t.Errorf("a system asked about again is not cached: %v %v", p, ok)
	}
	c.drop(systems[0])
	c.drop(systems[3])
	if len(c.m) != 0 || c.n != 0 {
		t.Errorf("after dropping every system: %d systems, %d entries counted", len(c.m), c.n)
	}
}

// A prediction from the cache is written as the same JSON as one
// computed afresh (the cache keeps its encoding, Prediction.MarshalJSON).
func TestCachedEncodingSame(t *testing.T) {
	var out [2]string
	for i, noCache := range []bool{false, true} {
		s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{NoCache: noCache})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Ingest(testEvents()); err != nil {
			t.Fatal(err)
		}
		h := s.Handler()
		for range 2 { // the second round hits the cache
			for _, path := range []string{"/karnak/system/s1/job/1002/prediction/waittime.json?within=600", "/karnak/system/s1/job/1003/prediction/starttime.json?confidence=95"} {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
				out[i] += w.Body.String()
			}
			w := httptest.NewRecorder()
			req := httptest.NewRequest("POST", "/karnak/waittime/prediction/?format=json", strings.NewReader(`{"cores": 4, "wallTime": "01:00:00", "within": 1800, "locations": ["normal@s1", "debug@s1", "nope@s1"]}`))
			req.Header.Set("Content-Type", "application/json")
			h.ServeHTTP(w, req)
			out[i] += w.Body.String()
		}
		if noCache {
			break
		}
		if s.cache.hits == 0 {
			t.Fatal("no cache hit")
		}
		// Concurrent hits on one entry each get the whole answer (and,
		// under -race, share nothing they write).
		var wg sync.WaitGroup
		path := "/karnak/system/s1/job/1002/prediction/waittime.json?within=600"
		want := httptest.NewRecorder()
		h.ServeHTTP(want, httptest.NewRequest("GET", path, nil))
		for range 4 {
			wg.Go(func() {
				for range 50 {
					w := httptest.NewRecorder()
					h.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
					if w.Body.String() != want.Body.String() {
						t.Errorf("concurrent hit: %q, want %q", w.Body.String(), want.Body.String())
						return
					}
				}
			})
		}
		wg.Wait()
	}
	if out[0] != out[1] {
		t.Fatalf("with the cache:\n%s\nwithout:\n%s", out[0], out[1])
	}
}
