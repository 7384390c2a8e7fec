package karnak

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/batchq/batchq/qbets"
)

// directFeed replays the QBETS part of an event sequence straight into
// qbets: one Predictor per queue with cfg, Submit at each submit, Observe
// at each start, as the service's queues are meant to be fed.
type directFeed struct {
	cfg   qbets.Config
	preds map[string]*qbets.Predictor // by "queue@system"
	subs  map[string]Event            // live submits by "system/job"
}

func newDirectFeed(cfg qbets.Config) *directFeed {
	return &directFeed{cfg: cfg, preds: map[string]*qbets.Predictor{}, subs: map[string]Event{}}
}

func (d *directFeed) apply(t *testing.T, e Event) {
	t.Helper()
	job := fmt.Sprint(e.System, "/", e.Job)
	var err error
	switch e.Kind {
	case "queue":
		k := e.Queue + "@" + e.System
		if d.preds[k] == nil {
			if d.preds[k], err = qbets.New(d.cfg); err != nil {
				t.Fatal(err)
			}
		}
	case "submit":
		d.subs[job] = e
		err = d.preds[e.Queue+"@"+e.System].Submit(e.Time)
	case "start":
		s := d.subs[job]
		err = d.preds[s.Queue+"@"+e.System].Observe(qbets.Observation{Submit: s.Time, Start: e.Time, Nodes: int(s.Cores), Walltime: s.WallTime})
	case "end":
		delete(d.subs, job)
	}
	if err != nil {
		t.Fatalf("%+v: %v", e, err)
	}
}

// The service's QBETS answers are those of qbets fed directly: one
// Predictor per queue with Config.Levels and Config.History
// (MaxHistory), through pruning (the saved states) and restarts from the
// pruned store. At every checkpoint each queue's predictor holds the same
// state as the direct one (MarshalBinary byte for byte), and every bound
// and probability the service answers is the direct one's.
func TestQBETSMatchesDirectReplay(t *testing.T) {
	jobs := 3000
	if testing.Short() {
		jobs = 1200
	}
	evs := retainEvents(jobs)
	o := retainOptions() // History 60: the predictors forget
	// The forecast's windows (TestPruneRestartSamePredictions checks
	// their retention) reach back further than QBETS needs: off, the
	// store is pruned to what QBETS and IBL need.
	o.MaxForecastJobs = -1
	full, err := o.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	direct := newDirectFeed(qbetsConfig(&full))
	now := evs[0].Time
	clock := func() int64 { return now }
	st := &MemStore{}
	svc, err := NewServiceWith(st, clock, o)
	if err != nil {
		t.Fatal(err)
	}
	restored := 0
	for i := 0; i < len(evs); i += 23 {
		b := evs[i:min(i+23, len(evs))]
		if err := svc.Ingest(b); err != nil {
			t.Fatal(err)
		}
		for _, e := range b {
			direct.apply(t, e)
		}
		if (i/23)%6 != 5 && i+23 < len(evs) {
			continue
		}
		if svc, err = NewServiceWith(st, clock, o); err != nil { // restart from the pruned store
			t.Fatal(err)
		}
		svc.cache.off = true
		now = b[len(b)-1].Time + 60
		restored += compareDirect(t, svc, direct, fmt.Sprintf("after %d events", i+len(b)))
	}
	st0 := direct.preds["normal@s1"].Stats()
	if st0.Forgotten == 0 || st.Len() > len(evs)/2 || restored == 0 {
		t.Fatalf("the test does not exercise the history cap (%d forgotten), pruning (%d of %d events stored) or restored states (%d)",
			st0.Forgotten, st.Len(), len(evs), restored)
	}
	t.Logf("%d events, %d stored at the end; normal@s1 forgot %d jobs; %d queue restarts from a saved state", len(evs), st.Len(), st0.Forgotten, restored)
}

// compareDirect checks every queue of svc against direct and returns how
// many queues were restored from a saved state.
func compareDirect(t *testing.T, svc *Service, direct *directFeed, when string) (restored int) {
	t.Helper()
	for k, dp := range direct.preds {
		queue, system, _ := cutAt(k)
		sys, err := svc.lookup(system)
		if err != nil {
			t.Fatal(err)
		}
		sys.mu.RLock()
		q := sys.queues[queue]
		got, gerr := q.pred.MarshalBinary()
		if q.decl.State != nil {
			restored++
		}
		sys.mu.RUnlock()
		want, werr := dp.MarshalBinary()
		if gerr != nil || werr != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s, %s: the service's predictor state (%d bytes, %v) differs from the direct replay's (%d bytes, %v)", when, k, len(got), gerr, len(want), werr)
		}
		for _, lv := range svc.opt.Levels {
			for _, cores := range []int64{1, 8} {
				for _, wall := range []int64{60, 3600} {
					r := &PredictRequest{Cores: cores, WallTime: wall, Quantile: lv.Quantile, Confidence: lv.Confidence, Within: 600,
						Locations: []Location{{System: system, Queue: queue}}}
					ps, err := svc.PredictHypothetical(r)
					if err != nil {
						t.Fatal(err)
					}
					p := ps[0]
					qf, cf := lv.fractions()
					f := dp.Forecast(qbets.Request{Nodes: int(cores), Walltime: wall, At: p.Now, Quantile: qf, Confidence: cf})
					if want := boundOrNil(f, p.Now); !sameJSON(p.QBETS, want) {
						t.Fatalf("%s, %s at %v, %d cores %d s: bound %+v, direct %+v", when, k, lv, cores, wall, p.QBETS, want)
					}
					if lv.Confidence != svc.opt.Levels[0].Confidence {
						if p.ProbWithin != nil {
							t.Fatalf("%s: a probability within at confidence %d", when, lv.Confidence)
						}
						continue
					}
					pw := 0.0
					if f.OK {
						pw, _ = dp.ProbWithin(int(cores), wall, 600)
					}
					if p.ProbWithin == nil || *p.ProbWithin != pw {
						t.Fatalf("%s, %s at %v: probability within %v, direct %v", when, k, lv, p.ProbWithin, pw)
					}
				}
			}
		}
	}
	return restored
}

func boundOrNil(f qbets.Forecast, now int64) *BoundPart {
	if !f.OK {
		return nil
	}
	return bound(f, now)
}

func sameJSON(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}

func cutAt(k string) (queue, system string, ok bool) {
	i := bytes.IndexByte([]byte(k), '@')
	if i < 0 {
		return k, "", false
	}
	return k[:i], k[i+1:], true
}

// Before this change the service kept one qbets.Predictor per (quantile,
// confidence) pair asked for, each fed the whole queue feed. The single
// predictor per queue answering Config.Levels gives the same bounds as
// those (the history cap aside, which the default never reaches on these
// events), and the same probability within at the first level; at another
// quantile of the same confidence the probability is now the first
// level's (its histories are trimmed at the first level's minimum
// history), where the old predictor used its own: the test logs how often
// the two differ.
func TestLevelsMatchPerPairPredictors(t *testing.T) {
	evs := retainEvents(1500)
	now := evs[len(evs)-1].Time + 60
	svc, err := NewServiceWith(nil, func() int64 { return now }, Config{Logf: func(string, ...any) {}})
	if err != nil {
		t.Fatal(err)
	}
	svc.cache.off = true
	levels := svc.opt.Levels
	perPair := make([]*directFeed, len(levels))
	for i, lv := range levels {
		q, c := lv.fractions()
		perPair[i] = newDirectFeed(qbets.Config{Quantile: q, Confidence: c})
	}
	for i := 0; i < len(evs); i += 500 {
		b := evs[i:min(i+500, len(evs))]
		if err := svc.Ingest(b); err != nil {
			t.Fatal(err)
		}
		for _, d := range perPair {
			for _, e := range b {
				d.apply(t, e)
			}
		}
	}
	asked, differ := 0, 0
	for _, system := range []string{"s1", "s2"} {
		for _, queue := range []string{"normal", "debug"} {
			for i, lv := range levels {
				old := perPair[i].preds[queue+"@"+system]
				for _, cores := range []int64{1, 4, 16, 64} {
					for _, wall := range []int64{60, 3600, 86400} {
						if queue == "debug" && (cores > 8 || wall > 3600) {
							continue
						}
						r := &PredictRequest{Cores: cores, WallTime: wall, Quantile: lv.Quantile, Confidence: lv.Confidence, Within: 3600,
							Locations: []Location{{System: system, Queue: queue}}}
						ps, err := svc.PredictHypothetical(r)
						if err != nil {
							t.Fatal(err)
						}
						p := ps[0]
						f := old.Forecast(qbets.Request{Nodes: int(cores), Walltime: wall, At: now})
						if want := boundOrNil(f, now); !sameJSON(p.QBETS, want) {
							t.Fatalf("%s@%s at %v, %d cores %d s: bound %+v, per-pair predictor %+v", queue, system, lv, cores, wall, p.QBETS, want)
						}
						if lv.Confidence != levels[0].Confidence {
							continue
						}
						pw := 0.0
						if f.OK {
							pw, _ = old.ProbWithin(int(cores), wall, 3600)
						}
						if i == 0 {
							if *p.ProbWithin != pw {
								t.Fatalf("%s@%s, first level: probability within %v, per-pair predictor %v", queue, system, *p.ProbWithin, pw)
							}
							continue
						}
						asked++
						if *p.ProbWithin != pw {
							differ++
						}
					}
				}
			}
		}
	}
	t.Logf("probability within at %d%% confidence, at the quantiles other than the first level's: %d of %d answers differ from the per-pair predictors'", levels[0].Confidence, differ, asked)
	// The figure examples/qserve/README.md gives ("QBETS levels").
	if differ != 48 || asked != 96 {
		t.Errorf("%d of %d differ: update examples/qserve/README.md", differ, asked)
	}
	if !slices.Contains(levels, Level{95, 90}) {
		t.Fatal("the default levels lost the default request's pair")
	}
}

// A Rewind keeps a queue's saved QBETS state when the state learned from
// no deleted event, and drops it otherwise: the predictor then learns
// from the events left in the store (what the state held before them is
// lost with it).
func TestRewindAndSavedState(t *testing.T) {
	evs := retainEvents(1200)
	st := &MemStore{}
	o := retainOptions()
	svc, err := NewServiceWith(st, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	// An estimate (out of band) dated after every event but stored before
	// the saved state's last event (and after every pruning's cut): a
	// rewind deletes it, and it must not count as the first deleted event
	// (the saved state learned from later ones).
	future := evs[len(evs)-1].Time + 3600
	for i := 0; i < len(evs); i += 23 {
		if err := svc.Ingest(evs[i:min(i+23, len(evs))]); err != nil {
			t.Fatal(err)
		}
		if i == 23*120 {
			if err := svc.Ingest([]Event{{Kind: "estimate", System: "s1", Queue: "normal", Cores: 1, WallTime: 60, Time: future, Start: future + 60}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	sys, _ := svc.lookup("s1")
	feed := sys.queues["normal"].decl.Feed
	if feed == 0 || sys.queues["normal"].decl.State == nil {
		t.Fatal("no saved state")
	}
	full, _ := o.withDefaults()
	state := func() []byte {
		sys, _ := svc.lookup("s1")
		b, err := sys.queues["normal"].pred.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	replayed := func(evs []Event) []byte {
		d := newDirectFeed(qbetsConfig(&full))
		for _, e := range evs {
			if e.System == "s1" {
				d.apply(t, e)
			}
		}
		b, _ := d.preds["normal@s1"].MarshalBinary()
		return b
	}
	// The MemStore numbers the events from 1 in the order ingested (the
	// estimate among them): the state has learned from the events up to
	// feed−1, at time last.
	last := evs[feed-3].Time
	estSeq := int64(0)
	st.Scan("s1", 0, func(r *Record) error { //nolint:errcheck // MemStore
		if r.Event.Kind == "estimate" {
			estSeq = r.Seq
		}
		return nil
	})
	if estSeq == 0 || estSeq >= feed-1 {
		t.Fatalf("the estimate is stored at %d (0: pruned), the saved state's feed is %d: the test does not exercise it", estSeq, feed)
	}
	if err := svc.Rewind("s1", last); err != nil {
		t.Fatal(err)
	}
	var upTo []Event
	for _, e := range evs {
		if e.Time <= last {
			upTo = append(upTo, e)
		}
	}
	if !bytes.Equal(state(), replayed(upTo)) {
		t.Fatal("rewound to the saved state's last event: the predictor is not the one fed every event up to it")
	}
	if err := svc.Rewind("s1", last-1); err != nil {
		t.Fatal(err)
	}
	var stored []Event
	st.Scan("s1", 0, func(r *Record) error { stored = append(stored, r.Event); return nil }) //nolint:errcheck // MemStore
	if !bytes.Equal(state(), replayed(stored)) {
		t.Fatal("rewound before the saved state's last event: the predictor is not the one fed the stored events")
	}
	if len(stored) >= len(upTo)/2 {
		t.Fatalf("the store holds %d of the %d events: the test does not exercise a pruned store", len(stored), len(upTo))
	}
}
