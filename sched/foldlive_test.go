package sched

import (
	"testing"

	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// headCheck checks, at every end and cancellation, what foldLive's
// shortcut relies on: the records before recHead are final and the one at
// recHead is still open (or recHead is past the last), so that only the
// head's own job ending can move it.
type headCheck struct {
	s  *Sim
	rt *rapid.T
}

func (h headCheck) OnSubmit(int64, *swf.Job)                    {}
func (h headCheck) OnStart(int64, *swf.Job, bool)               {}
func (h headCheck) OnReservation(int64, *swf.Job, int64)        {}
func (h headCheck) OnEnd(now int64, j *swf.Job, cancelled bool) { h.check() }

func (h headCheck) check() {
	s := h.s
	for k := range s.recHead {
		if s.recs[k].End < 0 {
			h.rt.Fatalf("record %d before the head %d is open", s.recBase+k, s.recBase+s.recHead)
		}
	}
	if s.recHead < len(s.recs) && s.recs[s.recHead].End >= 0 {
		h.rt.Fatalf("the head %d is final: it stayed behind", s.recBase+s.recHead)
	}
}

// TestFoldLiveHead runs random workloads (ends out of arrival order,
// cancellations while waiting and running) under SummaryOnly with
// headCheck. TestSummaryOnlyRapid holds foldLive's summary to the
// records'; a head left behind would change no figure, only keep every
// record after it (compactRecs drops those before the head).
func TestFoldLiveHead(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		P := rapid.Int64Range(1, 16).Draw(rt, "P")
		n := rapid.IntRange(1, 300).Draw(rt, "jobs")
		jobs := make([]swf.Job, n)
		for i := range jobs {
			j := swf.NewJob()
			j.ID = int64(i + 1)
			j.Submit = rapid.Int64Range(0, 3000).Draw(rt, "submit")
			j.RunTime = rapid.Int64Range(0, 2000).Draw(rt, "run")
			j.AllocProcs = rapid.Int64Range(1, P).Draw(rt, "procs")
			j.ReqTime = rapid.Int64Range(-1, 4000).Draw(rt, "estimate")
			jobs[i] = j
		}
		cfg := EASY(P)
		cfg.SummaryOnly = true
		cfg.KillAtEstimate = rapid.Bool().Draw(rt, "kill")
		s, err := New(cfg)
		if err != nil {
			rt.Fatal(err)
		}
		s.Observe(headCheck{s, rt})
		if err := s.Load(jobs); err != nil {
			rt.Fatal(err)
		}
		for range rapid.IntRange(0, 10).Draw(rt, "cancels") {
			id := rapid.Int64Range(1, int64(n)).Draw(rt, "cancelID")
			s.At(rapid.Int64Range(0, 5000).Draw(rt, "cancelAt"), func(int64) { s.Cancel(id) })
		}
		if _, err := s.Finish(); err != nil {
			rt.Fatal(err)
		}
	})
}
