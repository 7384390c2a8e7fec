// Package sanitize prepares real workload logs for simulation: the "sane"
// predicate of Tsafrir's thesis (Ch. 2–5 use only sane jobs), archive
// filters, flurry detection and reordering (Ch. 6, §7.4).
//
// The flurry detector is DetectFlurries with a FlurryConfig (its zero
// value is the thesis's observations): it returns Candidates for review and
// never changes the jobs; the filters apply a reviewed list.
//
// Decisions cited as S4, S5, S6 and S30, and sections cited as spec §N,
// are those of docs/decisions.md (the Tsafrir register and section map).
package sanitize

import (
	"fmt"

	"github.com/batchq/batchq/swf"
)

// Reason says why a job is not sane. The zero value means it is sane.
type Reason int

// The reasons of the sane predicate, in the order they are tested.
const (
	SaneJob           Reason = iota
	NoSubmit                 // submit time unknown (< 0)
	NoRunTime                // run time unknown (< 0)
	NoSize                   // neither allocated nor requested processors (> 0)
	LargerThanMachine        // size exceeds the machine
	TimeOutOfRange           // submit time, run time or estimate above MaxTime
	// DuplicateID is not a reason of Check: sched's simulator counts a job
	// under it when another job with the same ID is still to arrive,
	// waiting or running, so that an ID names one live job (Sim.Cancel).
	// A job without a number (below 1, SWF's -1) is none: the simulator
	// numbers it (the rule id_made_up), unless a live job has that number,
	// which only a hostile real number at or past 10^18 can.
	DuplicateID
	// FitsNoNode is not a reason of Check either: sched's simulator, on a
	// machine of nodes, counts a job under it when no node of the machine
	// could ever hold it, or its demand is invalid (Result.NoNode says
	// which resource).
	FitsNoNode
	// PartialExecution: the line is one partial execution of a
	// checkpointed or swapped job (status 2, 3 or 4), not a job. SWF puts
	// such a job's whole run on its summary line (status 0, 1 or 5, the
	// same job number), which is simulated; its partial lines would run
	// the same work again. Tested last, after the time range.
	PartialExecution
)

// MaxTime bounds the submit time, run time and estimate of a sane job:
// 2^40 s, about 35,000 years. Larger values are typing errors (milliseconds
// for seconds) or hostile input, and a simulator adding two of them must
// not wrap around int64.
const MaxTime = 1 << 40

var reasonNames = [...]string{"sane", "no submit time", "no run time", "no size", "larger than machine", "time out of range", "duplicate ID", "fits no node", "partial execution"}

func (r Reason) String() string {
	if r < 0 || int(r) >= len(reasonNames) {
		return fmt.Sprintf("Reason(%d)", int(r))
	}
	return reasonNames[r]
}

// Check applies the exact sane predicate (thesis §1.4 item 2, spec S4 and
// S5): a job is dropped if its submit time or run time is unknown, if its
// size (allocated processors, else requested) is not positive, or if it is
// larger than the machine of machineSize processors. A machineSize ≤ 0
// is an unknown machine (swf's Header.MachineSize gives 0 for a log
// whose header names none): the size test is skipped and the others
// apply; it marked every job larger than the machine. A run time of 0 is
// kept. Beyond the thesis, a job whose submit time, run time or estimate
// exceeds MaxTime is not sane either, nor a line of a partial execution
// (status 2, 3 or 4: its job's summary line carries the whole run).
func Check(j *swf.Job, machineSize int64) Reason {
	switch {
	case j.Submit < 0:
		return NoSubmit
	case j.RunTime < 0:
		return NoRunTime
	case j.Size() <= 0:
		return NoSize
	case machineSize > 0 && j.Size() > machineSize:
		return LargerThanMachine
	case j.Submit > MaxTime || j.RunTime > MaxTime || j.ReqTime > MaxTime:
		return TimeOutOfRange
	case j.Status.Partial():
		return PartialExecution
	}
	return SaneJob
}

// Excluded is a job that Sane removed, with the reason.
type Excluded struct {
	Index  int // position in the input slice
	ID     int64
	Reason Reason
}

// Report lists every job Sane removed.
type Report struct {
	Kept     int
	Excluded []Excluded
}

// Count returns how many jobs were excluded for reason r.
func (r *Report) Count(reason Reason) int {
	n := 0
	for _, e := range r.Excluded {
		if e.Reason == reason {
			n++
		}
	}
	return n
}

// Sane returns the sane jobs of jobs (in their original order, in a new
// slice) and a report of every job it excluded. A machineSize ≤ 0 is an
// unknown machine, whose size test is skipped (Check).
func Sane(jobs []swf.Job, machineSize int64) ([]swf.Job, Report) {
	kept := make([]swf.Job, 0, len(jobs))
	var rep Report
	for i := range jobs {
		if r := Check(&jobs[i], machineSize); r != SaneJob {
			rep.Excluded = append(rep.Excluded, Excluded{Index: i, ID: jobs[i].ID, Reason: r})
			continue
		}
		kept = append(kept, jobs[i])
	}
	rep.Kept = len(kept)
	return kept, rep
}
