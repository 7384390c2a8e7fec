package sched

import (
	"errors"
	"fmt"
	"iter"

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
// beyond the call, except by ID. A Scheduler may keep state of its own; the
// built-ins keep none.
type Scheduler interface {
	Schedule(p *Pass)
}

// Pass is the view of one scheduling pass: the clock, the free
// processors, the waiting and running jobs, and the actions.
//
// Starting a job while iterating Waiting, ByPrediction or Running is
// allowed: the iterators continue after the last job they yielded and skip
// jobs that left their set meanwhile (a job started during Waiting is not
// yielded again; a job started during Running may or may not be seen).
type Pass struct{ s *Sim }

// Now is the simulation clock.
func (p *Pass) Now() int64 { return p.s.now }

// Free is the number of idle processors now.
func (p *Pass) Free() int64 { return p.s.free }

// MachineSize is the number of processors of the machine.
func (p *Pass) MachineSize() int64 { return p.s.cfg.MachineSize }

// Waiting yields the waiting jobs in arrival order.
func (p *Pass) Waiting() iter.Seq[*Job] {
	return func(yield func(*Job) bool) {
		p.s.waitFCFS.Ascend(yield) // a job started meanwhile left a hole, which Ascend skips
	}
}

// ByPrediction yields the waiting jobs by ascending current prediction,
// ties by arrival order (A14).
func (p *Pass) ByPrediction() iter.Seq[*Job] {
	return func(yield func(*Job) bool) { ascendLive(p.s.byPrediction(), waiting, yield) }
}

// Running yields the running jobs by ascending predicted end, ties by start
// time then job ID (A2).
func (p *Pass) Running() iter.Seq[*Job] {
	return func(yield func(*Job) bool) { ascendLive(&p.s.run, running, yield) }
}

// Start starts waiting job j now, as a regular (not backfilled) start. It
// fails if j is not waiting or needs more processors than are free.
func (p *Pass) Start(j *Job) error { return p.s.startChecked(j, false) }

// Backfill starts waiting job j now and records it as backfilled (it
// overtook a job that holds a reservation). It fails like Start.
func (p *Pass) Backfill(j *Job) error { return p.s.startChecked(j, true) }

// Reserve records that waiting job j is expected to start at at. The
// simulator does not enforce reservations: they feed the predictability
// metrics (Record.FirstReservation, Summary.Predictability) and
// Observer.OnReservation.
func (p *Pass) Reserve(j *Job, at int64) error {
	if j == nil || j.state != waiting {
		return errors.New("sched: Reserve: job is not waiting")
	}
	p.s.reserve(j, at)
	return nil
}

// Shadow returns EASY's shadow time for a job of n processors, the
// predicted end of the running job after which n processors are free
// (never if they never are), and the extra processors: those free at the
// shadow beyond the n (§2.2 step 3). It honours Config.ShadowTies. A
// shadow before now means a running job outlived its prediction (A3).
func (p *Pass) Shadow(n int64) (shadow, extra int64) { return p.s.shadow(n) }

// Profile returns the free-processor profile from now on: the free
// processors, plus each running job's processors from its predicted end
// (a predicted end already past counts from now+1: the processors are
// still held, A3). The policy may Fit and Allocate in it; it is rebuilt at
// every call and shared by the pass, so keep at most one in use.
func (p *Pass) Profile() *Profile {
	s := p.s
	s.prof.Reset(s.now, s.free)
	s.run.Ascend(func(r *Job) bool { s.prof.Release(max(r.predEnd(), s.now+1), r.n); return true })
	return &s.prof
}

// Job is a job inside the simulator, as a Scheduler sees it. Its methods
// read the simulator's current view; the Job is valid during the pass
// that yielded it.
type Job struct {
	j        swf.Job // copy; ReqTime holds the effective estimate
	idx      int     // index in Sim.recs
	seq      int64   // arrival order
	n, e, r  int64
	p        int64 // current prediction
	p0       int64 // prediction at arrival
	start    int64
	end      int64
	state    jobState
	nCorr    int
	kPost    int
	filled   bool // estimate was missing (A6)
	backfill bool
	killed   bool  // run time cut to the estimate (KillAtEstimate)
	firstRes int64 // first reservation, -1 none
	res      int64 // current reservation, -1 none
	accSum   float64
	accT     int64
	prio     float64 // LXF&W priority of the current pass
	pos      int     // index in the waiting queue's slice
	key      int64   // first sort key in its jobSet (see jobSet.keyOf)
}

// ID is the job number (SWF field 1).
func (j *Job) ID() int64 { return j.j.ID }

// Size is the number of processors the job needs.
func (j *Job) Size() int64 { return j.n }

// Submit is the arrival time.
func (j *Job) Submit() int64 { return j.j.Submit }

// Estimate is the user's estimate e the simulator uses (A6 filled).
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

// SWF returns the job's trace line as the simulator uses it: ReqTime is
// the effective estimate, and RunTime the hidden run time, which a
// realistic policy must not look at.
func (j *Job) SWF() swf.Job { return j.j }

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

// startChecked is Pass.Start and Pass.Backfill.
func (s *Sim) startChecked(j *Job, backfilled bool) error {
	switch {
	case j == nil || j.state != waiting:
		return errors.New("sched: start: job is not waiting")
	case j.n > s.free:
		return fmt.Errorf("sched: start: job %d needs %d processors, %d free", j.j.ID, j.n, s.free)
	}
	s.startJob(j, backfilled)
	return nil
}

// byPrediction returns the waiting jobs ordered by (p, arrival), built on
// first use and kept up to date from then on.
func (s *Sim) byPrediction() *jobSet {
	if s.waitSJ == nil {
		s.waitSJ = &jobSet{byShort: true}
		s.waitFCFS.Ascend(func(j *Job) bool { s.waitSJ.ReplaceOrInsert(j); return true })
	}
	return s.waitSJ
}
