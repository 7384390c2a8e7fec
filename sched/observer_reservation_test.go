package sched_test

import (
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// resCount counts the reservations it is told of.
type resCount struct{ n int }

func (c *resCount) OnSubmit(int64, *swf.Job)             {}
func (c *resCount) OnStart(int64, *swf.Job, bool)        {}
func (c *resCount) OnEnd(int64, *swf.Job, bool)          {}
func (c *resCount) OnReservation(int64, *swf.Job, int64) { c.n++ }

// Sim.reserve calls only the observers that can want a reservation
// (resObs): a Hooks value without a Reservation func is left out, and
// every other observer is told of each one, a Hooks value with one, any
// other Observer and a *Hooks whose func is set after Observe alike, in
// EASY's and conservative backfilling.
func TestObserveReservationHooks(t *testing.T) {
	for _, name := range []string{"EASY", "conservative"} {
		p, _ := sched.LookupPreset(name)
		s, err := sched.New(p.New(4))
		if err != nil {
			t.Fatal(err)
		}
		// three jobs of the whole machine: the second and third wait
		// with a reservation, the third's moved when the first ends
		// early (run time below the estimate)
		if err := s.Load([]swf.Job{job(1, 0, 10, 4, 100), job(2, 1, 50, 4, 50), job(3, 2, 50, 4, 50)}); err != nil {
			t.Fatal(err)
		}
		var starts, hooks, late int
		s.Observe(sched.Hooks{Start: func(int64, *swf.Job, bool) { starts++ }})
		s.Observe(sched.Hooks{Reservation: func(int64, *swf.Job, int64) { hooks++ }})
		var own resCount
		s.Observe(&own)
		ptr := &sched.Hooks{}
		s.Observe(ptr)
		ptr.Reservation = func(int64, *swf.Job, int64) { late++ }
		if _, err := s.Finish(); err != nil {
			t.Fatal(err)
		}
		if starts != 3 || own.n == 0 || hooks != own.n || late != own.n {
			t.Errorf("%s: %d starts (want 3), reservations told: Hooks %d, Observer %d, *Hooks %d (want the same, not 0)", name, starts, hooks, own.n, late)
		}
	}
}
