package sched

import (
	"errors"
	"fmt"
	"iter"
)

// The outcomes of the Pass's actions, for errors.Is. The error returned
// wraps one of them and names the job. Only ErrNoFit is a normal outcome;
// the others mean the policy has a bug, and each is counted in
// Result.Refused.
var (
	// ErrNoFit: the job needs more processors than are free now. It
	// stays waiting; the policy goes on: give it a reservation (Shadow,
	// Profile) or try a smaller job. Probing with Start is allowed.
	ErrNoFit = errors.New("sched: job does not fit in the free processors")
	// ErrNotWaiting: the job is not waiting (it started, ended or was
	// cancelled), or is nil. Skip it; a policy that keeps jobs across
	// passes keeps their IDs and finds them again with Pass.Job.
	ErrNotWaiting = errors.New("sched: job is not waiting")
	// ErrOutOfRange: a reservation before Now or at or after 2^63−1 s.
	// Reserve max(t, Now()), or no reservation if the job may never start.
	ErrOutOfRange = errors.New("sched: reservation time out of range")
	// ErrStalePass: the Pass's scheduling pass has ended: the Scheduler
	// kept the *Pass beyond its Schedule call. Act only on the Pass a call
	// was given, during that call.
	ErrStalePass = errors.New("sched: the scheduling pass has ended")
	// ErrStall is what Run and Sim.Finish return (wrapped, naming the
	// first such job, with the Result) when the simulation ends with jobs
	// waiting: no event is left, so the machine is idle and they fit, but
	// the Scheduler never started them. Fix the policy: at every pass on
	// an idle machine it must start something.
	ErrStall = errors.New("sched: stall")
)

// Pass is the view of one scheduling pass: the clock, the free
// processors, the waiting and running jobs, and the actions. It is valid
// during the Schedule call it is given to; afterwards its actions fail
// with ErrStalePass.
//
// Starting a job while iterating Waiting, ByPrediction or Running is
// allowed: the iterators continue after the last job they yielded and skip
// jobs that left their set meanwhile (a job started during Waiting is not
// yielded again; a job started during Running may or may not be seen).
//
// The *Job handles, too, are valid for one pass: a Scheduler that keeps
// jobs across passes keeps their IDs and finds their handles again with
// Job, a map look-up, rather than by a walk of Waiting.
type Pass struct {
	s    *Sim
	over bool // the pass has ended
}

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
// ties by arrival order (S14).
func (p *Pass) ByPrediction() iter.Seq[*Job] {
	return func(yield func(*Job) bool) { ascendLive(p.s.byPrediction(), waiting, yield) }
}

// Job returns the handle of the waiting or running job of this ID, nil if
// there is none (the job is still to arrive, has ended or was cancelled,
// or no job has this ID: the simulator admits one job of an ID at a time).
// The first call of a simulation builds a map of the waiting and running
// jobs by ID; it is kept up to date from then on, at a map update per
// arrival and end (a simulation that never calls Job does not pay it).
func (p *Pass) Job(id int64) *Job { return p.s.job(id) }

// Running yields the running jobs by ascending predicted end, ties by start
// time then job ID (S2).
func (p *Pass) Running() iter.Seq[*Job] {
	return func(yield func(*Job) bool) { ascendLive(&p.s.run, running, yield) }
}

// Start starts waiting job j now, as a regular (not backfilled) start.
// The error wraps ErrNoFit if j needs more processors than are free,
// ErrNotWaiting if j is not waiting, ErrStalePass if the pass has ended.
func (p *Pass) Start(j *Job) error { return p.start(j, false) }

// Backfill starts waiting job j now and records it as backfilled (it
// overtook a job that holds a reservation). It fails like Start.
func (p *Pass) Backfill(j *Job) error { return p.start(j, true) }

func (p *Pass) start(j *Job, backfilled bool) error {
	s := p.s
	if err := p.check(j); err != nil {
		return err
	}
	if !s.placeNow(j) {
		if s.m != nil {
			return fmt.Errorf("job %d does not fit on the free nodes: %w", j.j.ID, ErrNoFit)
		}
		return fmt.Errorf("job %d needs %d processors, %d free: %w", j.j.ID, j.n, s.free, ErrNoFit)
	}
	s.startJob(j, backfilled)
	return nil
}

// check refuses, and counts, an action on a pass that has ended or on a
// job that is not waiting.
func (p *Pass) check(j *Job) error {
	var err error
	switch {
	case p.over:
		err = ErrStalePass
	case j == nil:
		err = ErrNotWaiting
	case j.state != waiting:
		err = fmt.Errorf("job %d: %w", j.j.ID, ErrNotWaiting)
	default:
		return nil
	}
	p.s.refused++
	return err
}

// Reserve records that waiting job j is expected to start at at (Now ≤
// at < 2^63−1). The simulator does not enforce reservations: they feed
// the predictability metrics (Record.FirstReservation,
// Summary.Predictability) and Observer.OnReservation. The error wraps
// ErrOutOfRange, ErrNotWaiting or ErrStalePass.
//
// (The built-in EASY reserves its shadow as it is, also when a running
// job outlived its prediction and the shadow lies in the past, S3.)
func (p *Pass) Reserve(j *Job, at int64) error {
	s := p.s
	if err := p.check(j); err != nil {
		return err
	}
	if at < s.now || at >= never {
		s.refused++
		return fmt.Errorf("job %d at %d, now %d: %w", j.j.ID, at, s.now, ErrOutOfRange)
	}
	if j.res != at {
		// a change the built-ins' memories must see: conservative
		// backfilling holds a waiting job's reservation as its slot
		s.epoch++
		s.qepoch++
	}
	s.reserve(j, at)
	return nil
}

// Shadow returns EASY's shadow time for a job of n processors, the
// predicted end of the running job after which n processors are free
// (never if they never are), and the extra processors: those free at the
// shadow beyond the n (§2.2 step 3). It honours Config.ShadowTies. A
// shadow before now means a running job outlived its prediction (S3).
func (p *Pass) Shadow(n int64) (shadow, extra int64) { return p.s.shadow(n) }

// Profile returns the free-processor profile from now on: the free
// processors, plus each running job's processors from its predicted end
// (a predicted end already past counts from now+1: the processors are
// still held, S3). With Config.PerEventPass, a job predicted to end now
// whose termination is still to come this instant has not outlived its
// prediction: its processors count from now, so that the profile at now
// may hold more than Free. A job planned on them gets ErrNoFit from
// Start: Reserve it at now, and start it at the pass after that
// termination, later in this instant (as the built-in conservative
// policy does). The policy may Fit and Allocate in it; it is rebuilt at
// every call and shared by the pass, so keep at most one in use. The
// built-in conservative policy works in the same profile: a call while it
// schedules (from an Observer of a Scheduler that wraps it, say) rebuilds
// the profile under it and drops its reservations.
func (p *Pass) Profile() *Profile {
	// Reset and a Release per running job, the set's chunks walked
	// here rather than through Ascend's call per job (as in shadow)
	s := p.s
	pts := append(s.prof.pts[:0], point{s.now, s.free})
	last := point{s.now, s.free} // pts's last point, kept in registers
	for _, c := range s.run.chunks {
		for _, r := range c {
			if t := s.freeFrom(r); t <= last.t { // predEnd, S3's now+1 at the earliest (endsNow)
				if t < last.t { // ends now as predicted, after a job that outlived it (from now+1)
					pts[0].free += r.n // (then pts is {now, now+1})
				}
				last.free += r.n
				pts[len(pts)-1].free = last.free
			} else {
				last = point{t, last.free + r.n}
				pts = append(pts, last)
			}
		}
	}
	s.prof.pts = pts
	return &s.prof
}

// passBlock is how many Passes an allocation makes (16 bytes each): each
// is handed out once, so a kept one stays ended.
const passBlock = 256

// pass runs one scheduling pass of the Scheduler. The built-ins, which
// keep no Pass, share one; any other Scheduler gets a Pass of its own,
// closed when its call returns, so that a kept one is refused.
func (s *Sim) pass() {
	if s.isEasy { // (the interface's call and its pointer wrapper's copy of the value: 1.3 M of KTH-SP2's 159 M)
		s.easyPass(&s.easy, s.easyQ, s.easyB)
		return
	}
	if s.isCons { // (as EASY: no interface's call, no pointer wrapper; 425 k passes on SDSC-BLUE)
		s.consSchedule()
		return
	}
	s.passOther() // (apart: its defer and Pass no longer weigh on the EASY pass's call)
}

// passOther is pass for a Scheduler other than EASYScheduler.
func (s *Sim) passOther() {
	if s.builtin {
		s.sched.Schedule(&s.view)
		return
	}
	if len(s.passes) == 0 {
		s.passes = make([]Pass, passBlock)
	}
	p := &s.passes[0]
	s.passes = s.passes[1:]
	p.s = s
	defer func() { p.over = true }()
	s.sched.Schedule(p)
}

// stall returns the error of a simulation that ended with jobs waiting.
func (s *Sim) stall() error {
	h, ok := s.waitFCFS.Min()
	if !ok {
		return nil
	}
	return fmt.Errorf("%w: job %d (%d processors, submitted at %d) and %d other(s) still wait on an idle machine of %d processors at the end: the Scheduler never started them",
		ErrStall, h.j.ID, h.n, h.j.Submit, s.waitFCFS.Len()-1, s.cfg.MachineSize)
}

// byPrediction returns the waiting jobs ordered by (p, arrival), built on
// first use and brought up to date at each call (Sim.sjFrom).
func (s *Sim) byPrediction() *jobSet {
	if s.waitSJ == nil {
		s.waitSJ, s.sjFrom = &jobSet{byShort: true}, s.seq
		s.waitFCFS.Ascend(func(j *Job) bool { s.waitSJ.ReplaceOrInsert(j); return true })
	}
	s.joinShort()
	return s.waitSJ
}
