package karnak

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// A submit's GPUs (thousandths of a GPU) are kept with the job and shown
// with the waiting jobs in every representation, and again after a
// restart from the store; a job without them shows 0.
func TestWaitingGPUs(t *testing.T) {
	st := &MemStore{}
	evs := testEvents()
	last := evs[len(evs)-1].Time
	evs = append(evs,
		Event{Kind: "submit", System: "s1", Job: 2001, Time: last + 1, Queue: "normal", Cores: 2, GPUs: 2000, WallTime: 600},
		Event{Kind: "submit", System: "s1", Job: 2002, Time: last + 2, Queue: "debug", Cores: 1, GPUs: 460, WallTime: 600})
	s, err := NewServiceWith(st, func() int64 { return testNow }, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Ingest(evs); err != nil {
		t.Fatal(err)
	}
	want := map[int64]int64{1001: 0, 1002: 0, 1003: 0, 2001: 2000, 2002: 460}
	check := func(s *Service, when string) {
		t.Helper()
		srv := httptest.NewServer(s.Handler())
		defer srv.Close()
		u := srv.URL + "/karnak/system/s1/job/waiting."
		code, body := do(t, "GET", u+"json", "", "")
		var js []WaitingJob
		if err := json.Unmarshal([]byte(body), &js); code != 200 || err != nil {
			t.Fatalf("%s: waiting.json: %d %v\n%s", when, code, err, body)
		}
		got := map[int64]int64{}
		for _, j := range js {
			got[j.Job] = j.GPUs
		}
		if len(got) != len(want) {
			t.Errorf("%s: waiting jobs %v, want %v", when, got, want)
		}
		for id, g := range want {
			if got[id] != g {
				t.Errorf("%s: job %d shows %d thousandths of a GPU, want %d", when, id, got[id], g)
			}
		}
		_, text := do(t, "GET", u+"txt", "", "")
		for _, l := range strings.Split(text, "\n") {
			f := strings.Fields(l)
			switch {
			case len(f) == 0:
			case f[0] == "job" && (len(f) < 5 || f[4] != "GPUs"): // "submitted" is one field, a time two
				t.Errorf("%s: waiting.txt header %q: no GPUs column after cores", when, l)
			case f[0] == "2001" && f[5] != "2", f[0] == "2002" && f[5] != "0.46", f[0] == "1001" && f[5] != "0":
				t.Errorf("%s: waiting.txt line %q: GPUs %q", when, l, f[5])
			}
		}
		_, html := do(t, "GET", u+"html", "", "")
		if !strings.Contains(html, `<th scope="col" class="num">GPUs</th>`) || !strings.Contains(html, `<td class="num">0.46</td>`) {
			t.Errorf("%s: waiting.html shows no GPUs column with 0.46:\n%s", when, html)
		}
		_, xml := do(t, "GET", u+"xml", "", "")
		if !strings.Contains(xml, "<gpus>2000</gpus>") {
			t.Errorf("%s: waiting.xml has no <gpus>2000</gpus>:\n%s", when, xml)
		}
	}
	check(s, "live")
	s, err = NewServiceWith(st, func() int64 { return testNow }, Config{})
	if err != nil {
		t.Fatal(err)
	}
	check(s, "after a restart")
}

// GPUs are a submit's only, never negative nor past the bound, and part
// of a batch's digest (a retried batch with other GPUs is another batch).
func TestEventGPUsCheck(t *testing.T) {
	ok := Event{Kind: "submit", System: "s1", Job: 1, Time: 5, Queue: "q", Cores: 1, GPUs: 1000}
	if err := ok.check(); err != nil {
		t.Errorf("%+v: %v", ok, err)
	}
	for _, e := range []Event{
		{Kind: "submit", System: "s1", Job: 1, Time: 5, Queue: "q", Cores: 1, GPUs: -1},
		{Kind: "submit", System: "s1", Job: 1, Time: 5, Queue: "q", Cores: 1, GPUs: maxSpan + 1},
		{Kind: "start", System: "s1", Job: 1, Time: 5, GPUs: 1000},
		{Kind: "queue", System: "s1", Time: 5, Queue: "q", Cores: 1, WallTime: 60, GPUs: 1000},
		{Kind: "estimate", System: "s1", Time: 5, Queue: "q", Cores: 1, WallTime: 60, Start: 9, GPUs: 1000},
	} {
		if err := e.check(); err == nil || !strings.HasPrefix(err.Error(), "gpus: ") {
			t.Errorf("%+v: %v, want an error naming gpus", e, err)
		}
	}
	other := ok
	other.GPUs = 2000
	none := ok
	none.GPUs = 0
	if a, b, c := digestOf([]Event{ok}), digestOf([]Event{other}), digestOf([]Event{none}); a == b || a == c {
		t.Errorf("digests %s, %s, %s: GPUs not part of them", a, b, c)
	}
}

// TraceEvents carries a job's GPUs in all from its Demand (per node times
// the nodes), and skips, counted, a job whose total is past the bound.
func TestTraceEventsGPUs(t *testing.T) {
	h := &swf.Header{}
	job := func(id int64, d *swf.Demand) swf.Job {
		return swf.Job{ID: id, Submit: id, Wait: 1, RunTime: 10, AllocProcs: 2, ReqProcs: 2, ReqTime: 60, Queue: 1, Demand: d}
	}
	jobs := []swf.Job{
		job(1, nil),
		job(2, &swf.Demand{Nodes: 2, Cores: 1, GPUs: 4000}),
		job(3, &swf.Demand{Nodes: 1, Cores: 2, GPUs: 460}),
		job(4, &swf.Demand{Cores: 2, Memory: 100}),
		job(5, &swf.Demand{Nodes: 1 << 40, Cores: 1, GPUs: 1 << 20}),
	}
	evs, skipped := TraceEvents(h, jobs, "s")
	got := map[int64]int64{}
	for _, e := range evs {
		if e.Kind == "submit" {
			got[e.Job] = e.GPUs
		}
		if err := e.check(); err != nil {
			t.Errorf("%+v: %v", e, err)
		}
	}
	want := map[int64]int64{1: 0, 2: 8000, 3: 460, 4: 0}
	if skipped != 1 || len(got) != len(want) {
		t.Errorf("skipped %d, submits %v; want 1 skipped (job 5), submits %v", skipped, got, want)
	}
	for id, g := range want {
		if got[id] != g {
			t.Errorf("job %d: submit with %d thousandths of a GPU, want %d", id, got[id], g)
		}
	}
}
