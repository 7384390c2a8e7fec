package karnak

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// retainEvents is a long live feed for the retention tests: system "s1"
// with a busy queue "normal" and a quieter one "debug" (redeclared with
// other limits along the way) and a second system "s2" interleaved with
// it, about one job an hour per system for months; some are cancelled
// while waiting, some run for days. In three phases, so that each bound
// on the cut is the binding one for a while (with retainOptions): first
// debug is rare (its feed reaches weeks back), then 3% of the jobs wait
// 10–25 days (they hold the cut while they wait, and their experiences
// once started), then debug is half the jobs (every window is shorter
// than the week of statistics).
func retainEvents(jobs int) []Event {
	r := rand.New(rand.NewPCG(7, 9))
	type ev struct {
		Event
		order int
	}
	var out []ev
	t := map[string]int64{"s1": 1_000_000, "s2": 1_000_000}
	for _, sys := range []string{"s1", "s2"} {
		out = append(out,
			ev{Event{Kind: "queue", System: sys, Time: t[sys], Queue: "normal", Cores: 64, WallTime: 3 * 86400}, 0},
			ev{Event{Kind: "queue", System: sys, Time: t[sys], Queue: "debug", Cores: 8, WallTime: 3600}, 0})
	}
	for i := range jobs {
		sys := "s1"
		if i%5 == 4 {
			sys = "s2"
		}
		t[sys] += int64(r.ExpFloat64()*3600*1.25) + 1
		at := t[sys]
		if i == jobs/3 || i == 2*jobs/3 { // new limits, still covering the jobs
			out = append(out, ev{Event{Kind: "queue", System: sys, Time: at, Queue: "debug", Cores: 8, WallTime: 3600 * int64(1+i%3)}, 1})
		}
		phase := 3 * i / jobs
		debug, long := []int{8, 15, 50}[phase], []int{0, 3, 0}[phase]
		q, cores, req := "normal", int64(1)<<r.IntN(7), int64(600*(1+r.IntN(144)))
		if r.IntN(100) < debug {
			q, cores, req = "debug", int64(1)<<r.IntN(4), int64(60*(1+r.IntN(60)))
		}
		var wait int64
		switch p := r.IntN(100); {
		case p < 40:
			wait = int64(r.IntN(60))
		case p < 80:
			wait = int64(r.IntN(4 * 3600))
		case p < 100-long:
			wait = int64(r.IntN(2 * 86400))
		default:
			wait = int64(10*86400 + r.IntN(15*86400))
		}
		run := int64(r.IntN(int(req) + 1))
		id := int64(i + 1)
		out = append(out, ev{Event{Kind: "submit", System: sys, Job: id, Time: at, Queue: q, Cores: cores, WallTime: req,
			User: fmt.Sprint("u", r.IntN(10)), Project: fmt.Sprint("g", r.IntN(3)), Name: fmt.Sprint("x", r.IntN(20))}, 2})
		if r.IntN(100) < 5 { // cancelled while waiting
			out = append(out, ev{Event{Kind: "end", System: sys, Job: id, Time: at + wait}, 1})
			continue
		}
		endOrder := 1
		if run == 0 {
			endOrder = 4
		}
		out = append(out,
			ev{Event{Kind: "start", System: sys, Job: id, Time: at + wait}, 3},
			ev{Event{Kind: "end", System: sys, Job: id, Time: at + wait + run}, endOrder})
	}
	slices.SortStableFunc(out, func(a, b ev) int {
		return cmp.Or(cmp.Compare(a.Time, b.Time), cmp.Compare(a.order, b.order), cmp.Compare(a.Job, b.Job))
	})
	evs := make([]Event, len(out))
	for i := range out {
		evs[i] = out[i].Event
	}
	return evs
}

// answers is everything the service says about its systems at the fixed
// clock: status, queue summaries, waiting jobs, and predictions of
// hypothetical and of every waiting job at three quantile/confidence
// pairs (the default one, another level, and one not among the levels).
func answers(t *testing.T, s *Service, waiting map[string][]int64) string {
	t.Helper()
	var b strings.Builder
	h := s.Handler()
	get := func(method, path, body string) {
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		raw, _ := io.ReadAll(w.Body)
		fmt.Fprintf(&b, "%s %s %s: %d %s\n", method, path, body, w.Code, raw)
	}
	get("GET", "/karnak/system/status.json", "")
	for _, sys := range []string{"s1", "s2"} {
		get("GET", "/karnak/system/"+sys+"/status.json", "")
		get("GET", "/karnak/system/"+sys+"/job/waiting.json", "")
		for _, q := range []string{"normal", "debug", allJobs} {
			get("GET", "/karnak/system/"+sys+"/queue/"+q+"/summary.json", "")
		}
		for _, qc := range [][2]int{{defaultQuantile, defaultConfidence}, {50, 90}, {75, 80}} {
			for _, cores := range []int{1, 8} {
				for _, wall := range []int{60, 3600} {
					get("POST", "/karnak/waittime/prediction/", fmt.Sprintf(`{"cores":%d,"wallTime":%d,"quantile":%d,"confidence":%d,"within":600,"locations":["normal@%s","debug@%s"]}`,
						cores, wall, qc[0], qc[1], sys, sys))
				}
			}
			for _, id := range waiting[sys] {
				get("GET", fmt.Sprintf("/karnak/system/%s/job/%d/prediction/waittime.json?quantile=%d&confidence=%d&within=00:10:00", sys, id, qc[0], qc[1]), "")
			}
		}
	}
	return b.String()
}

// retainOptions are small enough for the IBL bases and the week each to
// bound the cut at some time of retainEvents, and for the QBETS
// predictors to forget jobs (History, the least DefaultLevels allow).
func retainOptions() Config {
	// The clock stays at the first event: events may be months ahead.
	return Config{History: 60, PruneEvery: 150, baseSize: 50, Logf: func(string, ...any) {}, MaxSkew: maxSpan, MaxBackstep: -1, Rate: -1}
}

// pruneRun feeds evs to a pruning service over a store, restarting it from
// the store at every checkpoint (and going on with the restarted one), and
// to a reference service that never prunes, with the same options, and
// compares what they answer at every checkpoint. It returns the first
// difference ("" if none), how many events the store holds at the end and
// how many checkpoints found pruned events.
func pruneRun(t *testing.T, evs []Event, o Config) (diff string, rows, pruned int) {
	t.Helper()
	now := evs[0].Time
	clock := func() int64 { return now }
	ref := o
	ref.PruneEvery = -1
	want, err := NewServiceWith(nil, clock, ref)
	if err != nil {
		t.Fatal(err)
	}
	want.cache.off = true
	st := &MemStore{}
	got, err := NewServiceWith(st, clock, o)
	if err != nil {
		t.Fatal(err)
	}
	waiting := map[string]map[int64]bool{"s1": {}, "s2": {}}
	const batch, every = 23, 6 * 23
	for i := 0; i < len(evs); i += batch {
		b := evs[i:min(i+batch, len(evs))]
		for _, s := range []*Service{want, got} {
			if err := s.Ingest(b); err != nil {
				t.Fatalf("events %d–: %v", i, err)
			}
		}
		for _, e := range b {
			switch e.Kind {
			case "submit":
				waiting[e.System][e.Job] = true
			case "start", "end":
				delete(waiting[e.System], e.Job)
			}
		}
		if (i/batch+1)%(every/batch) != 0 && i+batch < len(evs) {
			continue
		}
		// Restart from the pruned store, as after a crash.
		if got, err = NewServiceWith(st, clock, o); err != nil {
			return fmt.Sprintf("restart after %d events: %v", i+len(b), err), 0, pruned
		}
		got.cache.off = true
		n := st.Len()
		if n < i+len(b) {
			pruned++
		}
		now = b[len(b)-1].Time + 60
		ids := map[string][]int64{}
		for sys, w := range waiting {
			for id := range w {
				ids[sys] = append(ids[sys], id)
			}
			slices.Sort(ids[sys])
		}
		if wa, ga := answers(t, want, ids), answers(t, got, ids); wa != ga {
			al, bl := strings.Split(wa, "\n"), strings.Split(ga, "\n")
			for k := range min(len(al), len(bl)) {
				if al[k] != bl[k] {
					return fmt.Sprintf("after %d of %d events (stored %d):\n never pruned: %s\n pruned+restarted: %s", i+len(b), len(evs), n, al[k], bl[k]), n, pruned
				}
			}
			return fmt.Sprintf("after %d events: %d vs %d answer lines", i+len(b), len(al), len(bl)), n, pruned
		}
	}
	rows = st.Len()
	return "", rows, pruned
}

// A restart from the pruned store answers exactly as a service that never
// pruned, with the same options: only the retained window matters.
// And each bound on the cut is needed: pruning past any one of them makes
// some answer differ (or the restart fail), so the comparison would catch
// a pruning that removed needed events.
func TestPruneRestartSamePredictions(t *testing.T) {
	jobs := 3000
	if testing.Short() {
		jobs = 1500
	}
	evs := retainEvents(jobs)
	for _, eager := range []bool{false, true} {
		o := retainOptions()
		o.eager = eager
		diff, rows, pruned := pruneRun(t, evs, o)
		if diff != "" {
			t.Fatalf("pruning every %d events (eager %v): %s", o.PruneEvery, eager, diff)
		}
		t.Logf("eager %v: %d events, %d kept in the store at the end; %d checkpoints found pruned events", eager, len(evs), rows, pruned)
		if rows > len(evs)/3 || pruned == 0 {
			t.Fatalf("the store keeps %d of %d events: pruning did not bound it", rows, len(evs))
		}
	}
	if testing.Short() {
		return // the five runs below take as long again
	}
	for _, bound := range []string{"waiting", "bases", "week", "state", "forecast"} {
		t.Run("without/"+bound, func(t *testing.T) {
			o := retainOptions()
			o.ignore, o.eager = bound, true
			if bound != "forecast" {
				// The forecast's windows reach further back than any
				// other bound here: without it, each one is the cut.
				o.MaxForecastJobs = -1
			}
			diff, _, _ := pruneRun(t, evs, o)
			if diff == "" {
				t.Fatalf("pruning past the %s bound changed no answer: the test cannot tell it is needed", bound)
			}
			t.Logf("without the %s bound: %s", bound, diff[:min(len(diff), 400)])
		})
	}
}

// A seqRing holds the last cap pushes; min is over those.
func TestSeqRing(t *testing.T) {
	r := newSeqRing(3)
	if r.min() != math.MaxInt64 {
		t.Fatal("empty ring has a minimum")
	}
	for _, s := range []int64{5, 2, 9, 7, 8} {
		r.push(s)
	}
	if got := r.min(); got != 7 {
		t.Fatalf("min of the last 3 of 5,2,9,7,8 = %d, want 7", got)
	}
}

// keepBefore keeps the submit and start of the jobs alive at the cut and
// the queue declarations in force from the first kept job event on.
func TestKeepBefore(t *testing.T) {
	evs := []storedEvent{
		{1, Event{Kind: "queue", Queue: "a"}},
		{2, Event{Kind: "queue", Queue: "b"}},
		{3, Event{Kind: "queue", Queue: "a"}},           // in force at 5
		{4, Event{Kind: "submit", Job: 1, Queue: "a"}},  // ended at 8
		{5, Event{Kind: "submit", Job: 2, Queue: "a"}},  // alive: started
		{6, Event{Kind: "submit", Job: 3, Queue: "a"}},  // alive: waiting
		{7, Event{Kind: "start", Job: 2}},               //
		{8, Event{Kind: "end", Job: 1}},                 //
		{9, Event{Kind: "queue", Queue: "b"}},           // after the first kept job event
		{10, Event{Kind: "submit", Job: 4, Queue: "a"}}, // cancelled
		{11, Event{Kind: "end", Job: 4}},                //
		{12, Event{Kind: "submit", Job: 5, Queue: "b"}}, // ran and ended
		{13, Event{Kind: "start", Job: 5}},              //
		{14, Event{Kind: "end", Job: 5}},                //
	}
	if got, want := keepBefore(evs), []int64{2, 3, 5, 6, 7, 9}; !slices.Equal(got, want) {
		t.Errorf("keepBefore = %v, want %v", got, want)
	}
}

// A replay resumes at the right place in its trace after the store was
// pruned: the deleted events still count.
func TestReplayResumesAfterPruning(t *testing.T) {
	var evs []Event
	for _, e := range retainEvents(1200) {
		if e.System == "s1" {
			evs = append(evs, e)
		}
	}
	st := &MemStore{}
	o := retainOptions()
	s, err := NewServiceWith(st, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	half := len(evs) / 2
	for i := 0; i < half; i += 23 { // as if the last run stopped here
		if err := s.Ingest(evs[i:min(i+23, half)]); err != nil {
			t.Fatal(err)
		}
	}
	if n := st.Len(); n >= half {
		t.Fatalf("the store holds %d of %d events: nothing was pruned", n, half)
	}
	if s, err = NewServiceWith(st, nil, o); err != nil { // restart
		t.Fatal(err)
	}
	if err := s.ReplayEvents(t.Context(), evs, "s1", 1e12, func(string, ...any) {}); err != nil {
		t.Fatal(err)
	}
	if last, _ := s.Last("s1"); last.Event != evs[len(evs)-1] {
		t.Fatalf("after the replay the last event is %+v, want %+v", last.Event, evs[len(evs)-1])
	}
	ref := o
	ref.PruneEvery = -1
	want, err := NewServiceWith(nil, nil, ref)
	if err != nil {
		t.Fatal(err)
	}
	if err := want.Ingest(evs); err != nil {
		t.Fatal(err)
	}
	// Compare at the replay's simulated clock, which both now share.
	sys, _ := s.lookup("s1")
	sys.mu.Lock()
	sys.sim = nil
	sys.mu.Unlock()
	now := evs[len(evs)-1].Time + 60
	s.now, want.now = func() int64 { return now }, func() int64 { return now }
	s.cache.off, want.cache.off = true, true
	if a, b := answers(t, want, nil), answers(t, s, nil); a != b {
		t.Fatal("the resumed replay answers differently from a service fed the whole trace")
	}
}
