package karnak

import (
	"cmp"
	"fmt"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
)

// The service's count of queues (queueCount, which tells the form
// whether it is compact without visiting every system) is the number of
// queues its systems have after every path that adds or removes one:
// ingests from several clients at once while the form is read (-race),
// a queue declared again, prunings of the store, a system dropped and
// one rewound to before a queue's declaration, both while the form and
// other systems' ingests go on, a system fed again after its drop, and a
// restart from the store (Load).
func TestQueueCountFollows(t *testing.T) {
	// System k: the test events, ten times as far apart (more than a
	// week: retainFrom keeps one), a queue "late" declared half way, and
	// "normal" declared again after it.
	base := testEvents()
	for i := range base {
		base[i].Time *= 10
	}
	now := func() int64 { return base[len(base)-1].Time + 60 }
	st := &MemStore{}
	cfg := Config{Rate: -1, History: 60, PruneEvery: 40, baseSize: 50, Logf: func(string, ...any) {}}
	s, err := NewServiceWith(st, now, cfg)
	if err != nil {
		t.Fatal(err)
	}
	mid := base[len(base)/2].Time
	evsOf := func(k int) []Event {
		evs := slices.Clone(base)
		evs = append(evs, Event{Kind: "queue", Time: mid, Queue: "late", Cores: 8, WallTime: 600},
			Event{Kind: "queue", Time: mid + 1, Queue: "normal", Cores: 64, WallTime: 86400})
		for i := range evs {
			evs[i].System = fmt.Sprintf("c%d", k)
		}
		slices.SortStableFunc(evs, func(a, b Event) int { return cmp.Compare(a.Time, b.Time) })
		return evs
	}
	sum := func(s *Service) int {
		n := 0
		for _, name := range s.systemNames() {
			if sys, err := s.lookup(name); err == nil {
				sys.mu.RLock()
				n += len(sys.queues)
				sys.mu.RUnlock()
			}
		}
		return n
	}
	check := func(s *Service, when string, want int) {
		t.Helper()
		if got, has := int(s.queueCount.Load()), sum(s); got != has || has != want {
			t.Errorf("%s: the service counts %d queues, its systems have %d; want %d", when, got, has, want)
		}
	}
	feed := func(k int) {
		evs := evsOf(k)
		for len(evs) > 0 {
			n := min(len(evs), 37)
			if err := s.Ingest(evs[:n]); err != nil {
				t.Error(err)
				return
			}
			evs = evs[n:]
		}
	}
	// The form, read all along.
	stop := make(chan struct{})
	var forms sync.WaitGroup
	for range 2 {
		forms.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				w := httptest.NewRecorder()
				s.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/karnak/waittime/predict.html?sys=c1", nil))
				if w.Code != 200 {
					t.Errorf("the form: %d", w.Code)
					return
				}
			}
		})
	}
	var wg sync.WaitGroup
	for k := range 6 {
		wg.Go(func() { feed(k) })
	}
	wg.Wait()
	check(s, "6 systems fed at once", 6*3)
	if n := st.Len(); n >= 6*len(evsOf(0)) {
		t.Errorf("the store holds %d records of %d: not pruned", n, 6*len(evsOf(0)))
	}
	// A drop and a rewind while others are fed.
	for k := 6; k < 9; k++ {
		wg.Go(func() { feed(k) })
	}
	wg.Go(func() {
		if err := s.Drop("c0"); err != nil {
			t.Error(err)
		}
	})
	wg.Go(func() {
		if err := s.Rewind("c1", mid-1); err != nil {
			t.Error(err)
		}
	})
	wg.Wait()
	check(s, "c0 dropped, c1 rewound before its late queue, 3 more fed", 9*3-3-1)
	feed(0)
	check(s, "c0 fed again", 9*3-1)
	close(stop)
	forms.Wait()
	// Restarted from the store.
	r, err := NewServiceWith(st, now, cfg)
	if err != nil {
		t.Fatal(err)
	}
	check(r, "restarted", 9*3-1)
}
