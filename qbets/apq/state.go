package apq

import (
	"fmt"
	"iter"
	"slices"
)

// Job is what APQ needs to know about a job (spec §1). Times are seconds.
type Job struct {
	ID     int64
	Submit int64
	// Start is the start time; it matters only for running jobs.
	Start int64
	// Req is the requested size (nodes or cores); a nominal attribute in
	// the distances, numeric in the weights and the regression.
	Req int64
	// ERT is the user's runtime estimate; ≤ 0 (unknown) counts as 0.
	ERT   int64
	User  int64
	Queue int64
}

func (j Job) ert() float64 { return float64(max(j.ERT, 0)) }

// State is the system at one instant: the jobs waiting (Q) and running (R).
// APQ computes a target's features and histograms from it (Tables I–II).
// Two sources implement it: System, which replays a trace's submit, start
// and end events, and Snapshot, a plain value that a simulator (e.g. a
// sched observer reading sched.Sim.Queue) fills at each prediction.
type State interface {
	Waiting() iter.Seq[Job]
	Running() iter.Seq[Job]
}

// Snapshot is a State given as two slices.
type Snapshot struct {
	Wait, Run []Job
}

// Waiting yields s.Wait.
func (s Snapshot) Waiting() iter.Seq[Job] { return slices.Values(s.Wait) }

// Running yields s.Run.
func (s Snapshot) Running() iter.Seq[Job] { return slices.Values(s.Run) }

// System is a State maintained from trace events (the paper's replay
// simulator, §6): Submit puts a job in the waiting list, Start moves it to
// the running list, End removes it. The zero System is empty and ready to
// use. A System is not safe for concurrent use, not even for questions
// alone: describing a job from it (Predictor.Describe) writes its memo.
type System struct {
	wait, run jobSet
	memo      memo // describe's summaries at one instant (memo.go)
}

// Submit adds j to the waiting list.
func (s *System) Submit(j Job) error {
	if s.wait.has(j.ID) || s.run.has(j.ID) {
		return fmt.Errorf("apq: System.Submit: job %d is already in the system", j.ID)
	}
	s.wait.add(j)
	s.event(j, waitingGroup, 1)
	return nil
}

// Start moves a waiting job to the running list at time t.
func (s *System) Start(id, t int64) error {
	i, ok := s.wait.at[id]
	if !ok {
		return fmt.Errorf("apq: System.Start: job %d is not waiting", id)
	}
	if sub := s.wait.jobs[i].Submit; t < sub {
		return fmt.Errorf("apq: System.Start: job %d starts at %d before its submit time %d", id, t, sub)
	}
	j, _ := s.wait.remove(id)
	s.event(j, waitingGroup, -1)
	j.Start = t
	s.run.add(j)
	s.event(j, runningGroup, 1)
	return nil
}

// End removes a running job.
func (s *System) End(id int64) error {
	j, ok := s.run.remove(id)
	if !ok {
		return fmt.Errorf("apq: System.End: job %d is not running", id)
	}
	s.event(j, runningGroup, -1)
	return nil
}

// Waiting yields the waiting jobs (in no particular order).
func (s *System) Waiting() iter.Seq[Job] { return s.wait.all() }

// Running yields the running jobs (in no particular order).
func (s *System) Running() iter.Seq[Job] { return s.run.all() }

// Len returns the numbers of waiting and running jobs.
func (s *System) Len() (waiting, running int) { return len(s.wait.jobs), len(s.run.jobs) }

// jobSet is a slice with O(1) removal by ID (swap with the last).
type jobSet struct {
	jobs []Job
	at   map[int64]int
}

func (s *jobSet) has(id int64) bool { _, ok := s.at[id]; return ok }

func (s *jobSet) add(j Job) {
	if s.at == nil {
		s.at = map[int64]int{}
	}
	s.at[j.ID] = len(s.jobs)
	s.jobs = append(s.jobs, j)
}

func (s *jobSet) remove(id int64) (Job, bool) {
	i, ok := s.at[id]
	if !ok {
		return Job{}, false
	}
	j := s.jobs[i]
	last := len(s.jobs) - 1
	s.jobs[i] = s.jobs[last]
	s.at[s.jobs[i].ID] = i
	s.jobs = s.jobs[:last]
	delete(s.at, id)
	return j, true
}

func (s *jobSet) all() iter.Seq[Job] { return slices.Values(s.jobs) }
