package sched

import "github.com/batchq/batchq/swf"

// Observer is told what happens in a simulation, synchronously, from inside
// the event loop. Its methods may call Sim.Submit, Sim.Cancel and Sim.At.
// The *swf.Job they get is valid during the call only (the simulator
// reuses it): copy what you keep.
type Observer interface {
	OnSubmit(now int64, j *swf.Job)
	OnStart(now int64, j *swf.Job, backfilled bool)
	// OnEnd is called when a job terminates or is cancelled.
	OnEnd(now int64, j *swf.Job, cancelled bool)
	// OnReservation is called when a waiting job gets a reservation or its
	// reservation time changes. at can lie before now: EASY's shadow time
	// is the predicted end of running jobs, and a prediction that expired
	// uncorrected (S3, plain EASY after an overrun) is kept as it is, so
	// the holder's reservation is "at present time" in the thesis's words
	// and Record.FirstReservation keeps that instant (§3.5's
	// predictability measures the overrun's delay from it).
	OnReservation(now int64, j *swf.Job, at int64)
}

// Hooks is an Observer built from optional funcs: set the ones you need,
// the others do nothing.
//
//	s.Observe(sched.Hooks{Start: func(now int64, j *swf.Job, bf bool) { ... }})
type Hooks struct {
	Submit      func(now int64, j *swf.Job)
	Start       func(now int64, j *swf.Job, backfilled bool)
	End         func(now int64, j *swf.Job, cancelled bool)
	Reservation func(now int64, j *swf.Job, at int64)
}

// OnSubmit calls h.Submit if set.
func (h Hooks) OnSubmit(now int64, j *swf.Job) {
	if h.Submit != nil {
		h.Submit(now, j)
	}
}

// OnStart calls h.Start if set.
func (h Hooks) OnStart(now int64, j *swf.Job, backfilled bool) {
	if h.Start != nil {
		h.Start(now, j, backfilled)
	}
}

// OnEnd calls h.End if set.
func (h Hooks) OnEnd(now int64, j *swf.Job, cancelled bool) {
	if h.End != nil {
		h.End(now, j, cancelled)
	}
}

// OnReservation calls h.Reservation if set.
func (h Hooks) OnReservation(now int64, j *swf.Job, at int64) {
	if h.Reservation != nil {
		h.Reservation(now, j, at)
	}
}

// observerHooks are the set funcs of the Hooks observers, by kind, in the
// order of their Observe calls.
type observerHooks struct {
	submit []func(now int64, j *swf.Job)
	start  []func(now int64, j *swf.Job, backfilled bool)
	end    []func(now int64, j *swf.Job, cancelled bool)
}

func (o *observerHooks) add(h Hooks) {
	if h.Submit != nil {
		o.submit = append(o.submit, h.Submit)
	}
	if h.Start != nil {
		o.start = append(o.start, h.Start)
	}
	if h.End != nil {
		o.end = append(o.end, h.End)
	}
}

// notifySubmit, notifyStart and notifyEnd tell the observers of an
// arrival, a start and an end. While every observer is a Hooks value
// (examples/simulate's is), its funcs are called directly: a call through
// the interface went through Hooks' method and its pointer wrapper, each
// testing a func, three calls a job for one func call (KTH-SP2's EASY
// run: about 2 M instructions of 160 M). The funcs of a kind run in the
// order of the Observe calls, as the observers do; with another
// Observer among them, every observer is called through the interface,
// in that order.
func (s *Sim) notifySubmit(jb *Job) {
	if s.mixed {
		for _, o := range s.obs {
			o.OnSubmit(s.now, &jb.j)
		}
		return
	}
	for _, f := range s.hooks.submit {
		f(s.now, &jb.j)
	}
}

func (s *Sim) notifyStart(jb *Job, backfilled bool) {
	if s.mixed {
		for _, o := range s.obs {
			o.OnStart(s.now, &jb.j, backfilled)
		}
		return
	}
	for _, f := range s.hooks.start {
		f(s.now, &jb.j, backfilled)
	}
}

func (s *Sim) notifyEnd(jb *Job, cancelled bool) {
	if s.mixed {
		for _, o := range s.obs {
			o.OnEnd(s.now, &jb.j, cancelled)
		}
		return
	}
	for _, f := range s.hooks.end {
		f(s.now, &jb.j, cancelled)
	}
}
