package apq

import (
	"cmp"
	"fmt"
	"slices"
)

// TraceJob is one finished job of a trace: Job.Start is its actual start
// and Run its run time, both in seconds.
type TraceJob struct {
	Job
	Run int64
}

// Event is what Replay reports.
type Event uint8

const (
	// Submitted: the job arrives; the System does not hold it yet, so it
	// is the state the job meets (its Q and R).
	Submitted Event = iota
	// Started: the job has just moved to the running list; its wait,
	// Start − Submit, is now known.
	Started
	// Ended: the job has just left the running list.
	Ended
)

const (
	kEnd = iota
	kStart
	kSubmit
	kStartNoWait
	kEndNoRun
)

type replayEvent struct {
	t    int64
	kind int
	i    int
}

// Replay is the paper's replay simulator (§6): it plays the submit, start
// and end events of jobs in time order through a System and calls fn with the
// job's index at each submission, start and end. At equal times, jobs that ran end first, then
// jobs that waited start, then arrivals are submitted (in input order),
// then jobs that did not wait start, then jobs that did not run end — so a
// job never sees itself and never starts before it is submitted. fn's
// error stops the replay. Jobs need Start ≥ Submit and Run ≥ 0, and unique
// IDs.
func Replay(jobs []TraceJob, fn func(ev Event, i int, sys *System) error) error {
	evs := make([]replayEvent, 0, 3*len(jobs))
	for i := range jobs {
		j := &jobs[i]
		if j.Start < j.Submit || j.Run < 0 {
			return fmt.Errorf("apq: Replay: job %d (index %d): start %d before submit %d or run %d < 0", j.ID, i, j.Start, j.Submit, j.Run)
		}
		start, end := kStart, kEnd
		if j.Start == j.Submit {
			start = kStartNoWait
		}
		if j.Run == 0 {
			end = kEndNoRun
		}
		evs = append(evs, replayEvent{j.Submit, kSubmit, i}, replayEvent{j.Start, start, i}, replayEvent{j.Start + j.Run, end, i})
	}
	slices.SortFunc(evs, func(a, b replayEvent) int {
		return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.kind, b.kind), cmp.Compare(a.i, b.i))
	})
	sys := NewSystem()
	for _, e := range evs {
		j := &jobs[e.i]
		var err error
		switch e.kind {
		case kSubmit:
			if err = fn(Submitted, e.i, sys); err == nil {
				err = sys.Submit(j.Job)
			}
		case kStart, kStartNoWait:
			if err = sys.Start(j.ID, j.Start); err == nil {
				err = fn(Started, e.i, sys)
			}
		default:
			if err = sys.End(j.ID); err == nil {
				err = fn(Ended, e.i, sys)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}
