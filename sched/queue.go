package sched

// JobView is a waiting or running job as a wait predictor may see it.
type JobView struct {
	ID, User   int64
	Size       int64
	Submit     int64
	Estimate   int64 // e
	Prediction int64 // current p
	Start      int64 // -1 while waiting
}

// QueueState is a snapshot of the machine at Now.
type QueueState struct {
	Now     int64
	Free    int64
	Waiting []JobView // in arrival order
	Running []JobView // by predicted end
}

// Queue returns the current state. It allocates; call it when an agent needs it.
func (s *Sim) Queue() QueueState {
	q := QueueState{Now: s.now, Free: s.free}
	view := func(j *Job) JobView {
		st := int64(-1)
		if j.state == running {
			st = j.start
		}
		return JobView{ID: j.j.ID, User: j.j.User, Size: j.n, Submit: j.j.Submit, Estimate: j.e, Prediction: j.p, Start: st}
	}
	s.waitFCFS.Ascend(func(j *Job) bool { q.Waiting = append(q.Waiting, view(j)); return true })
	s.run.Ascend(func(j *Job) bool { q.Running = append(q.Running, view(j)); return true })
	return q
}

// Free returns the number of idle processors.
func (s *Sim) Free() int64 { return s.free }

// Waiting returns the number of waiting jobs.
func (s *Sim) Waiting() int { return s.waitFCFS.Len() }

// Running returns the number of running jobs.
func (s *Sim) Running() int { return s.run.Len() }
