package karnak

import (
	"testing"

	"github.com/batchq/batchq/qbets"
)

// A queue's feed keeps between feedCap and 2·feedCap of the latest items,
// in order, so a long-lived service does not grow without bound; a
// predictor built from it sees exactly the kept suffix, and so does the
// default one, rebuilt when the feed halves.
func TestFeedIsBounded(t *testing.T) {
	o, err := Config{History: 4}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	s, err := newSystem("s", &o, nil)
	if err != nil {
		t.Fatal(err)
	}
	var seq int64
	apply := func(e Event) {
		t.Helper()
		seq++
		if err := s.apply(&e, seq); err != nil {
			t.Fatal(err)
		}
	}
	apply(Event{Kind: "queue", Queue: "q", Cores: 8, WallTime: 3600, Time: 0})
	q := s.queues["q"]
	for id := int64(1); id <= 10; id++ {
		apply(Event{Kind: "submit", Queue: "q", Job: id, Cores: 1, WallTime: 60, Time: 10 * id})
		apply(Event{Kind: "start", Job: id, Time: 10*id + id})
		if n := len(q.feed); n > 2*q.feedCap {
			t.Fatalf("after job %d the feed holds %d items, cap %d", id, n, q.feedCap)
		}
		if id == 3 || id == 6 { // built on demand, before and during a shadow cycle
			if _, err := q.predictor(qbKey{75 + int(id), 80}); err != nil {
				t.Fatal(err)
			}
		}
		// Every predictor is always one fed the current feed alone.
		for k, p := range q.preds {
			want, err := newPredictor(k, q.feed)
			if err != nil {
				t.Fatal(err)
			}
			if p.Stats() != want.Stats() {
				t.Fatalf("after job %d predictor %v: %+v, want %+v (the kept feed)", id, k, p.Stats(), want.Stats())
			}
		}
	}
	if len(q.preds) != 3 {
		t.Fatalf("predictors %v, want the default, 78/80 and 81/80", q.preds)
	}
	last := q.feed[len(q.feed)-1]
	if last.arrival || last.obs.Start != 110 {
		t.Fatalf("last item %+v, want the start of job 10 at 110", last)
	}
	for i := 1; i < len(q.feed); i++ {
		at := func(f feedItem) int64 {
			if f.arrival {
				return f.submit
			}
			return f.obs.Start
		}
		if at(q.feed[i]) < at(q.feed[i-1]) {
			t.Fatalf("feed out of order at %d: %+v", i, q.feed)
		}
	}
	p, err := q.predictor(qbKey{50, 50})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := qbets.New(qbets.Config{Quantile: 0.5, Confidence: 0.5})
	for _, f := range q.feed {
		if f.arrival {
			want.Submit(f.submit)
		} else {
			want.Observe(f.obs)
		}
	}
	if got, exp := p.Len(), want.Len(); got != exp || got == 10 {
		t.Fatalf("rebuilt predictor holds %d observations, want %d (the kept feed, not all 10 waits)", got, exp)
	}
	gb, gok := p.Predict(1, 60)
	wb, wok := want.Predict(1, 60)
	if gb != wb || gok != wok {
		t.Fatalf("rebuilt predictor bound %d/%v, want %d/%v", gb, gok, wb, wok)
	}
	// The default predictor, built when the queue was declared, forgot
	// what the feed dropped: it is a predictor fed the kept feed.
	def := q.preds[qbKey{defaultQuantile, defaultConfidence}]
	wantDef, _ := qbets.New(qbets.Config{Quantile: defaultQuantile / 100.0, Confidence: defaultConfidence / 100.0})
	for _, f := range q.feed {
		if f.arrival {
			wantDef.Submit(f.submit)
		} else {
			wantDef.Observe(f.obs)
		}
	}
	if def.Stats() != wantDef.Stats() || def.Len() == 10 {
		t.Fatalf("default predictor %+v, want %+v (the kept feed)", def.Stats(), wantDef.Stats())
	}
}
