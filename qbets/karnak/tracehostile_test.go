package karnak

import (
	"fmt"
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
	for _, base := range []int64{-1, 1<<40 + 1} {
		evs, why := traceEvents(&swf.Header{UnixStartTime: base}, jobs, "s")
		if want := fmt.Sprintf("%d unusable: %d UnixStartTime out of range", len(jobs), len(jobs)); len(evs) != 0 || reasons(why) != want {
			t.Errorf("UnixStartTime %d: %d events, reasons %q, want none and %q", base, len(evs), reasons(why), want)
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
