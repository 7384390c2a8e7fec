package karnak

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// A trace replayed as a system may hold what a real or hostile log holds:
// a job number used again while its first job is still live (a counter
// reset, two logs joined), and fields near 2^63. TraceEvents counts those
// jobs unusable instead of making events the service refuses (the replay
// stopped at "job: 1 is already known") or times that wrap past 2^63 to
// negative ("events[0].time: -9223372036011296585"); a number used again
// after its job ended is a new job, kept.
func TestTraceEventsHostile(t *testing.T) {
	const t0 = 1_000_000_000
	var jobs []swf.Job
	add := func(id, submit, wait, run, size int64) {
		j := swf.NewJob()
		j.ID, j.Submit, j.Wait, j.RunTime, j.AllocProcs, j.ReqTime = id, submit, wait, run, size, run
		jobs = append(jobs, j)
	}
	for i := range int64(40) {
		add(i+1, 100*i, 50, 500, 2)
	}
	add(1, 150, 0, 10, 1)        // 1 is still waiting or running then: unusable
	add(2, 5000, 0, 10, 1)       // 2 ended at 100+50+500: a new job, kept
	add(41, 1<<63-100, 0, 10, 1) // submit near 2^63: unusable
	add(42, 600, 1<<62, 10, 1)   // start past 2^40: unusable
	add(43, 700, 0, 1<<62, 1)    // end past 2^40: unusable
	add(44, 800, 0, 10, 1<<62)   // size beyond an event's bound: unusable
	evs, skipped := TraceEvents(&swf.Header{UnixStartTime: t0}, jobs, "s")
	if skipped != 5 {
		t.Errorf("skipped %d, want 5", skipped)
	}
	_, why := traceEvents(&swf.Header{UnixStartTime: t0}, jobs, "s")
	if want := "5 unusable: 3 time out of range, 1 duplicate ID, 1 size out of range"; reasons(why) != want {
		t.Errorf("reasons %q, want %q", reasons(why), want)
	}
	// A base that is no date (below 0, SWF's -1 "unknown" included, or
	// past 2^40 s) is 0, as a header without one or with a value swf kept
	// as text: one rule (-1 left every job unusable; past 2^40 s, kept as
	// text by swf, replayed from 0).
	zero, zwhy := traceEvents(&swf.Header{}, jobs, "s")
	for _, base := range []int64{-1, -1 << 40, math.MinInt64, 1<<40 + 1, math.MaxInt64} {
		evs, why := traceEvents(&swf.Header{UnixStartTime: base}, jobs, "s")
		if !slices.Equal(evs, zero) || reasons(why) != reasons(zwhy) {
			t.Errorf("UnixStartTime %d: %d events, reasons %q, want those from 0: %d events, %q", base, len(evs), reasons(why), len(zero), reasons(zwhy))
		}
	}
	last := evs[len(evs)-1].Time
	svc, err := NewServiceWith(&MemStore{}, func() int64 { return last }, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Ingest(evs); err != nil {
		t.Fatalf("the service refuses the trace's events: %v", err)
	}
	submits := 0
	for _, e := range evs {
		if e.Kind == "submit" {
			submits++
		}
	}
	if submits != len(jobs)-5 {
		t.Errorf("%d jobs submitted, want %d", submits, len(jobs)-5)
	}
}

// Every reason TraceEvents leaves a job out for has its name in Replay's
// log line and its error, one job per reason here.
func TestTraceEventsReasons(t *testing.T) {
	var jobs []swf.Job
	add := func(id int64, f func(j *swf.Job)) {
		j := swf.NewJob()
		j.ID, j.Submit, j.Wait, j.RunTime, j.AllocProcs, j.ReqTime = id, 10*id, 5, 100, 2, 200
		f(&j)
		jobs = append(jobs, j)
	}
	add(1, func(*swf.Job) {}) // usable, and live when job 1 comes again
	add(1, func(j *swf.Job) { j.Submit = 15 })
	add(2, func(j *swf.Job) { j.Submit = -1 })
	add(3, func(j *swf.Job) { j.Wait = -1 })
	add(4, func(j *swf.Job) { j.RunTime = -1 })
	add(5, func(j *swf.Job) { j.AllocProcs, j.ReqProcs = -1, -1 })
	add(6, func(j *swf.Job) { j.Demand = &swf.Demand{Nodes: 1 << 40, Cores: 1, GPUs: 1 << 20} })
	add(7, func(j *swf.Job) { j.AllocProcs = 1 << 41 })
	add(8, func(j *swf.Job) { j.ReqTime = 1 << 41 })
	evs, why := traceEvents(&swf.Header{}, jobs, "s")
	const want = "8 unusable: 1 GPUs out of range, 1 duplicate ID, 1 no run time, 1 no size, 1 no submit time, 1 no wait time, 1 size out of range, 1 time out of range"
	if got := reasons(why); got != want {
		t.Errorf("reasons %q, want %q", got, want)
	}
	if len(evs) != 4 { // job 1's queue, submit, start, end
		t.Errorf("%d events, want 4", len(evs))
	}
	if got := reasons(map[string]int{}); got != "0 unusable" {
		t.Errorf("no reason: %q, want \"0 unusable\"", got)
	}

	// A trace of unusable jobs alone: Replay's error names why.
	path := filepath.Join(t.TempDir(), "bad.swf")
	if err := os.WriteFile(path, []byte("1 -1 0 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n2 5 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	svc, err := NewService(&MemStore{}, func() int64 { return 0 })
	if err != nil {
		t.Fatal(err)
	}
	err = svc.Replay(context.Background(), path, "s", 1, t.Logf)
	if err == nil || !strings.Contains(err.Error(), "no usable jobs (2 unusable: 1 no submit time, 1 no wait time)") {
		t.Errorf("Replay of unusable jobs: %v", err)
	}
	// A header UnixStartTime past 2^40 s is kept as text by swf (2^63 − 1
	// left every job unusable here, and a library user adding a submit
	// time to it wrapped): the replay says it runs from time 0.
	far := filepath.Join(t.TempDir(), "far.swf")
	if err := os.WriteFile(far, []byte("; UnixStartTime: 9223372036854775807\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var said []string
	logf := func(f string, a ...any) { said = append(said, fmt.Sprintf(f, a...)) }
	if err := svc.Replay(context.Background(), far, "far", 1e12, logf); err != nil {
		t.Errorf("Replay of a trace whose UnixStartTime is out of range: %v", err)
	}
	if want := `header UnixStartTime "9223372036854775807" is no time base (kept as text): times from 0 (1970)`; len(said) == 0 || !strings.HasSuffix(said[0], want) {
		t.Errorf("Replay said %q, want first %q", said, want)
	}
	// So is -1, SWF's "unknown" (any value below 0): it was refused,
	// every job unusable, while a value past 2^40 s replayed from 0.
	unknown := filepath.Join(t.TempDir(), "unknown.swf")
	if err := os.WriteFile(unknown, []byte("; UnixStartTime: -1\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	said = nil
	if err := svc.Replay(context.Background(), unknown, "unknown", 1e12, logf); err != nil {
		t.Errorf("Replay of a trace whose UnixStartTime is -1: %v", err)
	}
	if want := `header UnixStartTime -1 is no time base (below 0: unknown): times from 0 (1970)`; len(said) == 0 || !strings.HasSuffix(said[0], want) {
		t.Errorf("Replay said %q, want first %q", said, want)
	}
	// A later line that sets it is the time base: the value kept as text
	// is then no reason to say the times run from 0 (it said so).
	later := filepath.Join(t.TempDir(), "later.swf")
	if err := os.WriteFile(later, []byte("; UnixStartTime: 9223372036854775807\n; UnixStartTime: 60\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	said = nil
	if err := svc.Replay(context.Background(), later, "later", 1e12, logf); err != nil {
		t.Errorf("Replay of a trace whose second UnixStartTime is in range: %v", err)
	}
	if slices.ContainsFunc(said, func(s string) bool { return strings.Contains(s, "no time base") }) {
		t.Errorf("Replay said %q of a trace whose time base a later line set", said)
	}
	// An empty trace says so, as the commands say it of an empty log: it
	// said "no usable jobs (0 unusable)".
	empty := filepath.Join(t.TempDir(), "empty.swf")
	if err := os.WriteFile(empty, []byte("; MaxProcs: 4\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := svc.Replay(context.Background(), empty, "s", 1, t.Logf); err == nil || err.Error() != empty+": no job lines" {
		t.Errorf("Replay of an empty trace: %v, want %s: no job lines", err, empty)
	}
}

// A checkpointed job's partial lines (status 2, 3 or 4) share its summary
// line's number: they are left out as "partial execution", as every
// simulator leaves them out, and the summary line is the job. One was
// replayed as a job of its own and the summary refused as a "duplicate
// ID" (or the summary replayed and the partial line refused so).
func TestTraceEventsPartialLines(t *testing.T) {
	var jobs []swf.Job
	add := func(id, submit int64, status swf.Status) {
		j := swf.NewJob()
		j.ID, j.Submit, j.Wait, j.RunTime, j.AllocProcs, j.ReqTime, j.Status = id, submit, 5, 100, 2, 200, status
		jobs = append(jobs, j)
	}
	add(1, 10, swf.StatusPartial) // the first run, before the summary line
	add(1, 10, swf.StatusCompleted)
	add(1, 10, swf.StatusLastPart)
	add(2, 20, swf.StatusCompleted)
	add(2, 20, swf.StatusLastFail)
	evs, why := traceEvents(&swf.Header{}, jobs, "s")
	if got, want := reasons(why), "3 unusable: 3 partial execution"; got != want {
		t.Errorf("reasons %q, want %q", got, want)
	}
	if len(evs) != 7 { // the queue, and jobs 1 and 2's submit, start, end
		t.Errorf("%d events, want 7", len(evs))
	}
}
