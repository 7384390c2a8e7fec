package agent

import (
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

type startRecorder struct{ starts map[int64]int64 }

func (r *startRecorder) OnSubmit(int64, *swf.Job)              {}
func (r *startRecorder) OnStart(now int64, j *swf.Job, _ bool) { r.starts[j.ID] = now }
func (r *startRecorder) OnEnd(int64, *swf.Job, bool)           {}
func (r *startRecorder) OnReservation(int64, *swf.Job, int64)  {}

func TestSchedMachine(t *testing.T) {
	s, err := sched.New(sched.EASY(4))
	if err != nil {
		t.Fatal(err)
	}
	rec := &startRecorder{starts: map[int64]int64{}}
	s.Observe(rec)
	m := NewSchedMachine(s, 1000)
	var a, b, c int64
	m.At(100, func() {
		var err error
		if a, err = m.Submit(4, 500, 500); err != nil { // runs 100–600
			t.Error(err)
		}
		if b, err = m.Submit(2, 300, 300); err != nil { // waits for a
			t.Error(err)
		}
		if c, err = m.Submit(2, 300, 300); err != nil { // cancelled while queued
			t.Error(err)
		}
		if _, err := m.Submit(5, 10, 10); err == nil {
			t.Error("a job larger than the machine was accepted")
		}
	})
	m.At(200, func() {
		if err := m.Cancel(c); err != nil {
			t.Error(err)
		}
		if err := m.Cancel(c); err == nil {
			t.Error("cancelled twice")
		}
	})
	if err := s.RunUntil(10000); err != nil {
		t.Fatal(err)
	}
	if rec.starts[a] != 100 || rec.starts[b] != 600 || len(rec.starts) != 2 {
		t.Errorf("starts %v (a=%d b=%d c=%d)", rec.starts, a, b, c)
	}
	if !m.Owns(a) || !m.Owns(c) || m.Owns(999) || m.Owns(c+1) || m.Now() != 10000 {
		t.Errorf("ownership or clock wrong")
	}
}

// Over a log of jobs without a number (sched numbers them -n), a machine
// numbered from 0 submits from 1: sched would have made up a number for
// job 0, and the observer seen it, not the one Submit returned.
func TestSchedMachineNumbersFromOne(t *testing.T) {
	s, err := sched.New(sched.EASY(4))
	if err != nil {
		t.Fatal(err)
	}
	j := swf.NewJob()
	j.ID, j.Submit, j.RunTime, j.ReqTime, j.AllocProcs = -1, 0, 50, 50, 1
	if err := s.Load([]swf.Job{j}); err != nil {
		t.Fatal(err)
	}
	rec := &startRecorder{starts: map[int64]int64{}}
	s.Observe(rec)
	m := NewSchedMachine(s, 0)
	var a int64
	m.At(10, func() {
		var err error
		if a, err = m.Submit(1, 100, 100); err != nil {
			t.Error(err)
		}
	})
	if err := s.RunUntil(1000); err != nil {
		t.Fatal(err)
	}
	if _, ok := rec.starts[a]; !ok || a < 1 || !m.Owns(a) || m.Owns(-1) {
		t.Errorf("submitted job %d, starts seen %v; want it started under its number, 1 or above", a, rec.starts)
	}
}
