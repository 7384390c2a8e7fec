package karnak

import (
	"cmp"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/qbets"
)

// failTrimmer is a change-point detector whose state cannot be saved.
type failTrimmer struct{}

func (failTrimmer) Observe(int64, bool) int { return 0 }
func (failTrimmer) Reset()                  {}
func (failTrimmer) MarshalBinary() ([]byte, error) {
	return nil, errors.New("this trimmer cannot be saved")
}

// Of two queues whose QBETS state cannot be saved, the error names the
// first by name, every time: saveStates ranged over the queues' map, so
// the error named whichever the map gave first (a or b from one call to
// the next).
func TestSaveStatesErrorFirstByName(t *testing.T) {
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	sys, err := s.systemFor("s1", false)
	if err != nil {
		t.Fatal(err)
	}
	sys.qcfg.Trimmer = func(int) qbets.Trimmer { return failTrimmer{} }
	evs := []Event{}
	for _, q := range []string{"b", "a", "c"} { // c saves (its predictor learns nothing), a and b fail
		evs = append(evs, Event{Kind: "queue", System: "s1", Time: 100, Queue: q, Cores: 8, WallTime: 3600})
	}
	for i := range int64(40) {
		q := []string{"b", "a"}[i%2]
		evs = append(evs,
			Event{Kind: "submit", System: "s1", Job: i + 1, Time: 100 + 10*i, Queue: q, Cores: 1, WallTime: 600},
			Event{Kind: "start", System: "s1", Job: i + 1, Time: 105 + 10*i})
	}
	slices.SortStableFunc(evs, func(a, b Event) int { return cmp.Compare(a.Time, b.Time) })
	if err := s.Ingest(evs); err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		sys.mu.RLock()
		_, err := sys.saveStates()
		sys.mu.RUnlock()
		if err == nil || !strings.Contains(err.Error(), `saving the QBETS state of queue "a": `) {
			t.Fatalf("call %d: %v, want the error of queue a", i, err)
		}
	}
}

// rewriteLog is a MemStore that records the sequence numbers of every
// Rewrite's put, in the order given.
type rewriteLog struct {
	MemStore
	puts [][]int64
}

func (r *rewriteLog) Rewrite(system string, del []int64, put []Record) error {
	seqs := make([]int64, len(put))
	for i := range put {
		seqs[i] = put[i].Seq
	}
	r.puts = append(r.puts, seqs)
	return r.MemStore.Rewrite(system, del, put)
}

// A pruning hands the store its new queue declarations in store order:
// it gave them in the order of a map, so the same state made different
// calls (and a store failing on one record failed on another).
func TestPruneRewritesInOrder(t *testing.T) {
	st := &rewriteLog{}
	jobs := 3000 // 32 prunings
	if testing.Short() {
		jobs = 1500 // 15
	}
	evs := retainEvents(jobs)
	s, err := NewServiceWith(st, func() int64 { return evs[0].Time }, retainOptions())
	if err != nil {
		t.Fatal(err)
	}
	for len(evs) > 0 {
		n := min(len(evs), 50)
		if err := s.Ingest(evs[:n]); err != nil {
			t.Fatal(err)
		}
		evs = evs[n:]
	}
	several := 0
	for _, p := range st.puts {
		if len(p) > 1 {
			several++
		}
		if !slices.IsSorted(p) {
			t.Errorf("a pruning put %v: not in store order", p)
		}
	}
	if several < 3 {
		t.Errorf("%d prunings put more than one declaration (of %d), want at least 3 to see an order", several, len(st.puts))
	}
	t.Logf("%d prunings, %d of them putting several declarations", len(st.puts), several)
}
