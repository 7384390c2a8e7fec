package slurmfeed

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/batchq/batchq/qbets/karnak"
)

const t0 = 1_800_000_000

// scenario is a small cluster: a running job, a waiting one, a waiting
// array of three tasks and a job that will be cancelled while waiting.
func scenario() *fakeSlurm {
	return &fakeSlurm{parts: testParts, jobs: []*fakeJob{
		{id: 1, state: "RUNNING", submit: t0, start: t0 + 1, end: t0 + 121, limit: 2, partition: "short", cpus: 4, ran: true},
		{id: 2, state: "PENDING", submit: t0 + 2, start: t0 + 300, limit: 60, partition: "long", cpus: 8},
		{id: 3, arrayJob: 3, tasks: "0-2", state: "PENDING", submit: t0 + 3, start: t0 + 100, limit: 1, partition: "short", cpus: 1},
		{id: 4, state: "PENDING", submit: t0 + 4, start: t0 + 400, limit: 2, partition: "short", cpus: 8},
	}}
}

func newTest(t *testing.T, f *fakeSlurm, cursor string) (*Collector, *tapService, *clock) {
	t.Helper()
	clk := &clock{t: t0 + 30}
	tp := newTap(t, clk.unix)
	c, err := New(Config{System: "c1", Service: tp, Runner: f, Cursor: cursor, Now: clk.now, Since: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	c.roundClockForTests = func(time.Time) time.Duration { return 0 } // (see probeTest)
	return c, tp, clk
}

func mustPoll(t *testing.T, c *Collector) {
	t.Helper()
	if err := c.Poll(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// eventList shows events one per line: kind job time (queue: name cores wall).
func eventList(evs []karnak.Event) string {
	var b strings.Builder
	for _, e := range evs {
		if e.Kind == "queue" {
			fmt.Fprintf(&b, "queue %s %d %d %d\n", e.Queue, e.Cores, e.WallTime, e.Time-t0)
			continue
		}
		id := fmt.Sprint(e.Job)
		if e.Job>>62 == 1 {
			id = fmt.Sprintf("%d_%d", e.Job>>22&(1<<40-1), e.Job&(1<<22-1))
		}
		fmt.Fprintf(&b, "%s %s %d\n", e.Kind, id, e.Time-t0)
	}
	return b.String()
}

func TestFeed(t *testing.T) {
	f := scenario()
	c, tp, clk := newTest(t, f, "")
	mustPoll(t, c) // t0+30: everything up to t0+10 is due
	// Then Slurm's expected start of each waiting job, read at t0+30.
	want := "queue short 8 120 0\nsubmit 1 0\nstart 1 1\nqueue long 8 86400 2\nsubmit 2 2\n" +
		"submit 3_0 3\nsubmit 3_1 3\nsubmit 3_2 3\nsubmit 4 4\n" +
		"estimate 2 30\nestimate 3_0 30\nestimate 3_1 30\nestimate 3_2 30\nestimate 4 30\n"
	if got := eventList(tp.events); got != want {
		t.Fatalf("first poll sent\n%s\nwant\n%s", got, want)
	}
	// Job 1 ends, task 0 starts (with its own job id), job 4 is cancelled
	// while waiting (Slurm gives it start = end and no nodes).
	f.set(func() {
		f.jobs[0].state, f.jobs[0].end = "COMPLETED", t0+35
		f.jobs[2].tasks = "1-2"
		f.jobs = append(f.jobs, &fakeJob{id: 10, arrayJob: 3, task: ptr(0), state: "RUNNING", submit: t0 + 3, start: t0 + 36, end: t0 + 96, limit: 1, partition: "short", cpus: 1, ran: true})
		f.jobs[3].state, f.jobs[3].start, f.jobs[3].end = "CANCELLED", t0+38, t0+38
	})
	clk.advance(10) // t0+40: nothing is 20 s old yet
	mustPoll(t, c)
	if n := len(tp.events); n != 14 {
		t.Fatalf("an event was sent before the reorder delay: %s", eventList(tp.events[14:]))
	}
	clk.advance(20) // t0+60
	mustPoll(t, c)
	want += "end 1 35\nstart 3_0 36\nend 4 38\n"
	if got := eventList(tp.events); got != want {
		t.Fatalf("sent\n%s\nwant\n%s", got, want)
	}
	// Job 1 leaves slurmctld (sacct still has it): nothing is sent twice.
	f.set(func() { f.jobs[0].purged = true })
	clk.advance(20)
	mustPoll(t, c)
	if got := eventList(tp.events); got != want {
		t.Fatalf("sent again:\n%s", strings.TrimPrefix(got, want))
	}
	r := c.Report()
	if r.Batches != 2 || r.Events["submit"] != 6 || r.Events["estimate"] != 5 || r.Events["start"] != 2 || r.Events["end"] != 2 || r.Late != 0 || len(r.Skipped) != 0 {
		t.Errorf("report %+v", r)
	}
	// Task 0 waited 33 s; Slurm expected it at t0+100 (97 s).
	if len(r.Jobs) != 1 || r.Jobs[0].Job != "3_0" || r.Jobs[0].Wait != 33 || r.Jobs[0].Slurm == nil || r.Jobs[0].Slurm.Wait != 97 || r.Jobs[0].Slurm.At != t0+30 {
		t.Fatalf("scores %+v", r.Jobs)
	}
	if r.Unpredicted != 1 { // job 1 started before it was seen waiting
		t.Errorf("unpredicted %d, want 1", r.Unpredicted)
	}
}

// A batch stored by the service whose acknowledgement was lost is sent
// again by the next collector (same cursor), under the same id, and
// stored once.
func TestRestartResendsTheBatchInFlight(t *testing.T) {
	cursor := filepath.Join(t.TempDir(), "cursor.json")
	f := scenario()
	c, tp, clk := newTest(t, f, cursor)
	tp.lose = true
	if err := c.Poll(context.Background()); err == nil {
		t.Fatal("a lost acknowledgement is not an error")
	}
	stored := tp.store.Len()
	if stored == 0 {
		t.Fatal("the service stored nothing")
	}
	// A new process: same cursor, same service.
	tp.lose = false
	c2, err := New(Config{System: "c1", Service: tp, Runner: f, Cursor: cursor, Now: clk.now})
	if err != nil {
		t.Fatal(err)
	}
	mustPoll(t, c2)
	if tp.store.Len() != stored || len(tp.batches) != 2 || tp.batches[0] != tp.batches[1] {
		t.Fatalf("store holds %d records (had %d); batches %v", tp.store.Len(), stored, tp.batches)
	}
	// And the feed goes on from where it was.
	f.set(func() { f.jobs[0].state, f.jobs[0].end = "COMPLETED", t0+35 })
	clk.advance(30)
	mustPoll(t, c2)
	if got := eventList(tp.events[len(tp.events)-1:]); got != "end 1 35\n" {
		t.Errorf("after the restart sent %s", got)
	}
	if r := c2.Report(); r.Errors != 1 || r.Batches != 2 {
		t.Errorf("report after the restart: %d errors, %d batches; want 1 and 2", r.Errors, r.Batches)
	}
}

func TestServiceOutage(t *testing.T) {
	f := scenario()
	c, tp, clk := newTest(t, f, "")
	tp.down = true
	if err := c.Poll(context.Background()); err == nil {
		t.Fatal("an outage is not an error")
	}
	f.set(func() { f.jobs[0].state, f.jobs[0].end = "COMPLETED", t0+35 })
	clk.advance(30)
	if err := c.Poll(context.Background()); err == nil {
		t.Fatal("an outage is not an error")
	}
	tp.down = false
	clk.advance(10)
	mustPoll(t, c)
	// The batch in flight first, then the new one: in time order.
	if len(tp.batches) != 2 || !strings.HasSuffix(tp.batches[0], "/1") || !strings.HasSuffix(tp.batches[1], "/2") {
		t.Fatalf("batches %v", tp.batches)
	}
	if got := eventList(tp.events[len(tp.events)-1:]); got != "end 1 35\n" {
		t.Errorf("last event %s", got)
	}
	if r := c.Report(); r.Errors != 2 || !strings.Contains(r.LastError, "connection refused") {
		t.Errorf("errors %d, last %q", r.Errors, r.LastError)
	}
}

func TestSlurmDown(t *testing.T) {
	f := scenario()
	f.fail = "squeue"
	c, tp, _ := newTest(t, f, "")
	err := c.Poll(context.Background())
	if err == nil || !strings.Contains(err.Error(), "squeue") {
		t.Fatalf("err %v", err)
	}
	if len(tp.events) != 0 {
		t.Errorf("sent %d events without squeue", len(tp.events))
	}
}

func TestRejectedBatchIsCounted(t *testing.T) {
	c, tp, _ := newTest(t, scenario(), "")
	tp.reject = true
	mustPoll(t, c)
	r := c.Report()
	// 9 events and the 5 waiting jobs' estimates.
	if r.Skipped["rejected by the service (batch dropped)"] != 14 || r.Batches != 0 {
		t.Fatalf("report %+v", r)
	}
}

func TestSkipsAreCountedOnce(t *testing.T) {
	f := scenario()
	f.jobs = append(f.jobs,
		&fakeJob{id: 20, state: "PENDING", submit: t0 + 5, start: t0 + 100, limit: 2, partition: "gpu", cpus: 1},
		&fakeJob{id: 21, state: "PENDING", submit: t0 + 5, start: t0 + 100, limit: 2, partition: "short", cpus: 64},
		&fakeJob{id: 22, state: "WEIRD", submit: t0 + 5, partition: "short", cpus: 1},
	)
	c, _, clk := newTest(t, f, "")
	for range 3 {
		mustPoll(t, c)
		clk.advance(10)
	}
	r := c.Report()
	want := map[string]int64{
		"partition not in scontrol's list (or without CPUs)": 1,
		"more CPUs than its partition has":                   1,
		`squeue: unknown job state "WEIRD"`:                  1,
	}
	if fmt.Sprint(r.Skipped) != fmt.Sprint(want) {
		t.Errorf("skipped %v, want %v", r.Skipped, want)
	}
}

// A job seen late (sacct only, after later events went out) is sent at
// the watermark and counted; a requeued job is ended and counted.
func TestLateAndRequeued(t *testing.T) {
	f := scenario()
	c, tp, clk := newTest(t, f, "")
	mustPoll(t, c)
	f.set(func() {
		f.jobs = append(f.jobs, &fakeJob{id: 30, state: "COMPLETED", submit: t0 + 1, start: t0 + 2, end: t0 + 40, limit: 2, partition: "short", cpus: 1, ran: true, purged: true})
		f.jobs[0].state = "PENDING" // job 1 requeued
	})
	clk.advance(30) // t0+60, cutoff t0+40
	mustPoll(t, c)
	got := eventList(tp.events[14:])
	want := "submit 30 4\nstart 30 4\nend 1 40\nend 30 40\n"
	if got != want {
		t.Errorf("sent\n%s\nwant\n%s", got, want)
	}
	r := c.Report()
	if r.Late != 2 || r.Skipped["requeued: the run after the requeue is not fed"] != 1 {
		t.Errorf("late %d, skipped %v", r.Late, r.Skipped)
	}
}

func TestConfigValidate(t *testing.T) {
	for _, c := range []Config{
		{},
		{Service: &tapService{}, Quantile: 100},
		{Service: &tapService{}, Confidence: 5},
		{Service: &tapService{}, Poll: -1},
		{Service: &tapService{}, System: strings.Repeat("x", 65)},
		// Names the service refuses in every event (karnak's rule):
		// every batch would be rejected.
		{Service: &tapService{}, System: "a b"},
		{Service: &tapService{}, System: ".."},
		{Service: &tapService{}, System: "x/y"},
	} {
		if err := c.Validate(); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	if err := (Config{Service: &tapService{}}).Validate(); err != nil {
		t.Error(err)
	}
	if err := (Config{Service: &tapService{}, System: "cluster-1.a_b"}).Validate(); err != nil {
		t.Error(err)
	}
}

func TestCursorOfAnotherSystem(t *testing.T) {
	cursor := filepath.Join(t.TempDir(), "cursor.json")
	newTest(t, scenario(), cursor)
	_, err := New(Config{System: "other", Service: &tapService{}, Cursor: cursor})
	if err == nil || !strings.Contains(err.Error(), `"c1"`) {
		t.Fatalf("err %v", err)
	}
}

// An in-process Service that rejects a batch for good (here: the second
// partition is one queue too many) answers a karnak.Error the collector
// recognises, as it does over HTTP: the batch is dropped and counted,
// and the next poll goes on, instead of the same batch being retried at
// every poll. A transient error (the service rebuilding: 503) keeps the
// batch.
func TestInProcessRejectionDropped(t *testing.T) {
	for _, transport := range []string{"in-process", "http"} {
		t.Run(transport, func(t *testing.T) {
			clk := &clock{t: t0 + 30}
			svc, err := karnak.New(nil, karnak.Config{Now: clk.unix, MaxQueues: 1})
			if err != nil {
				t.Fatal(err)
			}
			if err := svc.Load(context.Background()); err != nil {
				t.Fatal(err)
			}
			var target Service = svc
			if transport == "http" {
				srv := httptest.NewServer(svc.Handler())
				defer srv.Close()
				target = &Client{URL: srv.URL, HTTP: srv.Client()}
			}
			c, err := New(Config{System: "c1", Service: target, Runner: scenario(), Now: clk.now, Since: time.Hour, ProbeEvery: -1})
			if err != nil {
				t.Fatal(err)
			}
			for range 2 {
				mustPoll(t, c)
				clk.advance(10)
			}
			r := c.Report()
			if r.Skipped["rejected by the service (batch dropped)"] == 0 || r.Errors != 0 {
				t.Fatalf("report %+v", r)
			}
		})
	}
	notReady, err := karnak.New(nil, karnak.Config{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = notReady.IngestBatch("b", []karnak.Event{{Kind: "queue", System: "c1", Queue: "q", Cores: 1, WallTime: 60}})
	var ke *karnak.Error
	if !errors.As(err, &ke) || !ke.Temporary() || rejected(err) {
		t.Fatalf("before Load: %v", err)
	}
}

// Every job read is accounted for: a job seen while still inside the
// reorder delay (or, on a clock that ran backwards, after the poll's
// time) is neither fed nor skipped yet, and the Report counts it, with
// why, until a later poll feeds it.
func TestNotDueIsCounted(t *testing.T) {
	f := scenario()
	f.jobs = append(f.jobs, &fakeJob{id: 20, state: "PENDING", submit: t0 + 25, start: t0 + 500, limit: 2, partition: "short", cpus: 1})
	c, _, clk := newTest(t, f, "")
	mustPoll(t, c) // t0+30, cutoff t0+10
	r := c.Report()
	delay := "submitted within the reorder delay before the last poll"
	if r.Events["submit"] != 6 || len(r.NotDue) != 1 || r.NotDue[delay] != 1 {
		t.Errorf("t0+30: submits %d, not due %v; want 6 and 1 %q", r.Events["submit"], r.NotDue, delay)
	}
	clk.advance(-25) // t0+5: the clock ran backwards
	mustPoll(t, c)
	back := "submitted after the last poll's time (a clock that ran backwards)"
	if r := c.Report(); len(r.NotDue) != 1 || r.NotDue[back] != 1 {
		t.Errorf("t0+5: not due %v, want 1 %q", r.NotDue, back)
	}
	clk.advance(55) // t0+60, cutoff t0+40: due
	mustPoll(t, c)
	if r := c.Report(); r.Events["submit"] != 7 || len(r.NotDue) != 0 {
		t.Errorf("t0+60: submits %d, not due %v; want 7 and none", r.Events["submit"], r.NotDue)
	}
}

// A job not yet due at the last poll before a restart is counted as a
// continuous run counts it: in the Report right after the restart, and,
// when it is gone from squeue and sacct by the next poll, as skipped once
// Keep has passed (a restart that forgot it would lose it from the
// accounts).
func TestNotDueAcrossRestart(t *testing.T) {
	for _, restart := range []bool{false, true} {
		cursor := filepath.Join(t.TempDir(), "cursor.json")
		f := scenario()
		f.jobs = append(f.jobs, &fakeJob{id: 20, state: "PENDING", submit: t0 + 25, start: t0 + 500, limit: 2, partition: "short", cpus: 1})
		c, tp, clk := newTest(t, f, cursor)
		mustPoll(t, c) // t0+30, cutoff t0+10: job 20 not due
		if restart {
			var err error
			if c, err = New(Config{System: "c1", Service: tp, Runner: f, Cursor: cursor, Now: clk.now}); err != nil {
				t.Fatal(err)
			}
		}
		if r := c.Report(); len(r.NotDue) != 1 {
			t.Errorf("restart %v: not due %v, want job 20", restart, r.NotDue)
		}
		f.set(func() { f.jobs = f.jobs[:len(f.jobs)-1] }) // cancelled and gone, sacct too
		clk.advance(30)
		mustPoll(t, c)
		clk.advance(3600)
		mustPoll(t, c)
		r := c.Report()
		if gone := r.Skipped["seen before it was due, then gone from squeue and sacct"]; gone != 1 || len(r.NotDue) != 0 {
			t.Errorf("restart %v: gone %d, not due %v; want 1 and none", restart, gone, r.NotDue)
		}
	}
}

// A job not yet due is labelled by the poll that saw it: a poll whose
// batch the service did not take (down) leaves LastPoll behind, and a job
// submitted since is no clock that ran backwards. One not seen at the
// last poll (gone before it was due) says so until Keep counts it skipped.
func TestNotDueReasonServiceDown(t *testing.T) {
	f := scenario()
	c, tp, clk := newTest(t, f, "")
	mustPoll(t, c)          // t0+30
	f.jobs = append(f.jobs, // job 21 due at the next poll (a batch to send), 20 not
		&fakeJob{id: 21, state: "PENDING", submit: t0 + 15, start: t0 + 500, limit: 2, partition: "short", cpus: 1},
		&fakeJob{id: 20, state: "PENDING", submit: t0 + 35, start: t0 + 500, limit: 2, partition: "short", cpus: 1})
	clk.advance(10) // t0+40, cutoff t0+20: job 20 not due; the service down
	tp.mu.Lock()
	tp.down = true
	tp.mu.Unlock()
	if err := c.Poll(context.Background()); err == nil {
		t.Fatal("poll with the service down: no error")
	}
	delay := "submitted within the reorder delay before the last poll"
	if r := c.Report(); len(r.NotDue) != 1 || r.NotDue[delay] != 1 {
		t.Errorf("service down: not due %v, want 1 %q", r.NotDue, delay)
	}
	tp.mu.Lock()
	tp.down = false
	tp.mu.Unlock()
	f.jobs = f.jobs[:len(f.jobs)-1] // gone from squeue and sacct
	clk.advance(5)
	mustPoll(t, c)
	gone := "seen before it was due, not at the last poll"
	if r := c.Report(); len(r.NotDue) != 1 || r.NotDue[gone] != 1 {
		t.Errorf("gone: not due %v, want 1 %q", r.NotDue, gone)
	}
}
