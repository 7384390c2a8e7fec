package sched

import (
	"fmt"

	"github.com/batchq/batchq/swf"
)

// Scheduler is a scheduling policy: at each scheduling pass it decides
// which waiting jobs start now and, optionally, which get reservations.
// The simulator owns everything else: events, predictions and their
// correction, metrics, observers, SWF output. A policy sees the pass
// through Pass and acts only through Pass.Start, Pass.Backfill and
// Pass.Reserve, so a user's policy gets exactly the waits, slowdowns,
// exclusions and flags a built-in gets.
//
// Schedule is called only while some job waits. It may be called many
// times at the same instant (one pass per
// event with Config.PerEventPass, or again when an observer submitted or
// cancelled a job during the pass). It must not keep the Pass or its jobs
// beyond the call, except by ID (actions on a kept Pass fail with
// ErrStalePass). A Scheduler may keep state of its own; the built-ins keep
// none. A Scheduler may have a method Name() string: Result.Policy and
// reports name it by it (else by its Go type).
type Scheduler interface {
	Schedule(p *Pass)
}

// policyName is a Scheduler's Name, or its Go type.
func policyName(x Scheduler) string {
	if n, ok := x.(interface{ Name() string }); ok {
		return n.Name()
	}
	return fmt.Sprintf("%T", x)
}

// Job is a job inside the simulator, as a Scheduler sees it. Its methods
// read the simulator's current view; the Job is valid during the pass
// that yielded it.
type Job struct {
	j swf.Job // copy; ReqTime holds the effective estimate
	jobLive
	// *jobNodes is the state on a machine of nodes, nil on one pool (see
	// jobNodes).
	*jobNodes
}

// jobLive is a Job's own state, without pointers: activate writes it as
// one value, straight into the Job (a Job with pointers throughout was
// built on the stack and copied over, a quarter of the node model's cost
// on one pool).
type jobLive struct {
	idx      int   // index in Sim.recs
	seq      int64 // arrival order
	n, e, r  int64
	p        int64 // current prediction
	p0       int64 // prediction at arrival
	start    int64
	end      int64
	state    jobState
	nCorr    int
	kPost    int
	filled   bool // estimate was missing (S6)
	backfill bool
	killed   bool  // run time cut to the estimate, or the next check (KillAtEstimate, KillCheck)
	firstRes int64 // first reservation, -1 none
	res      int64 // current reservation, -1 none
	accSum   float64
	accT     int64
	prio     float64 // LXF&W priority of the current pass
	pos      int     // index in the waiting queue's slice
	key      int64   // first sort key in its jobSet (see jobSet.keyOf)
	held     int64   // the cores it holds while running (n on one pool)
}

// ID is the job number (SWF field 1).
func (j *Job) ID() int64 { return j.j.ID }

// Size is the number of processors the job needs.
func (j *Job) Size() int64 { return j.n }

// Submit is the arrival time.
func (j *Job) Submit() int64 { return j.j.Submit }

// Estimate is the user's estimate e the simulator uses (S6 filled).
func (j *Job) Estimate() int64 { return j.e }

// Prediction is the current prediction p (the estimate unless a
// RuntimePredictor or Corrector says otherwise).
func (j *Job) Prediction() int64 { return j.p }

// Started is the start time of a running job, -1 for a waiting one.
func (j *Job) Started() int64 {
	if j.state == waiting {
		return -1
	}
	return j.start
}

// PredictedEnd is a running job's start + prediction.
func (j *Job) PredictedEnd() int64 { return j.predEnd() }

// Reservation is the last time given to Pass.Reserve for this job, -1 if
// none.
func (j *Job) Reservation() int64 { return j.res }

// User is the user's number (SWF field 12), -1 if unknown.
func (j *Job) User() int64 { return j.j.User }

// Group is the group's number (SWF field 13), -1 if unknown.
func (j *Job) Group() int64 { return j.j.Group }

// Queue is the queue's number (SWF field 15), -1 if unknown.
func (j *Job) Queue() int64 { return j.j.Queue }

// Partition is the partition's number (SWF field 16), -1 if unknown.
func (j *Job) Partition() int64 { return j.j.Partition }

// SWF returns the job's trace line as a policy may see it: ReqTime is the
// effective estimate, and what is known only after the job ran (run time,
// wait, CPU time, memory used, status) is swf.Unknown. The run time is
// the simulator's secret: a policy that needs it (an oracle) gets it
// through Config.Predictor (sched/predict.Perfect).
func (j *Job) SWF() swf.Job {
	l := j.j
	l.RunTime, l.Wait, l.AvgCPUTime, l.UsedMemory, l.Status = swf.Unknown, swf.Unknown, swf.Unknown, swf.Unknown, swf.StatusUnknown
	return l
}

// ascendLive yields the elements of t in order, from a cursor that
// survives insertions and deletions between yields: it reads a batch of
// elements after the last one yielded and yields those still in state.
func ascendLive(t *jobSet, state jobState, yield func(*Job) bool) {
	var batch [32]*Job
	var last *Job
	for {
		n := 0
		collect := func(j *Job) bool {
			if j == last {
				return true
			}
			batch[n] = j
			n++
			return n < len(batch)
		}
		if last == nil {
			t.Ascend(collect)
		} else {
			t.AscendGreaterOrEqual(last, collect)
		}
		for _, j := range batch[:n] {
			if j.state == state && !yield(j) {
				return
			}
		}
		if n < len(batch) {
			return
		}
		last = batch[n-1]
	}
}
