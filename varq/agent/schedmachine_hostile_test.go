package agent

import (
	"math"
	"strings"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/varq"
)

// A job ID the simulation already holds is reported as a duplicate ID
// (it was reported as "rejected a 4-processor job"); a job too large
// for the machine names that reason; IDs do not wrap past 2^63−1.
func TestSchedMachineRejections(t *testing.T) {
	s, err := sched.New(sched.EASY(8))
	if err != nil {
		t.Fatal(err)
	}
	trace := []swf.Job{
		{ID: 1000, Submit: 0, RunTime: 5000, AllocProcs: 2, ReqTime: 5000},
		{ID: 1001, Submit: 900, RunTime: 10, AllocProcs: 2, ReqTime: 10},
	}
	if err := s.Load(trace); err != nil {
		t.Fatal(err)
	}
	m := NewSchedMachine(s, 1000) // overlaps the trace's IDs
	var errs []error
	m.At(100, func() {
		_, e1 := m.Submit(4, 600, 600) // 1000: running
		errs = append(errs, e1)
		m.nextID = 1001 // 1001: still to arrive
		_, e2 := m.Submit(4, 600, 600)
		errs = append(errs, e2)
		m.nextID = 5000
		_, e3 := m.Submit(9, 600, 600)
		errs = append(errs, e3)
		_, e4 := m.Submit(0, 600, 600)
		errs = append(errs, e4)
		m.nextID = math.MaxInt64
		_, e5 := m.Submit(1, 600, 600)
		errs = append(errs, e5)
	})
	if err := s.RunUntil(200); err != nil {
		t.Fatal(err)
	}
	want := []string{"job ID 1000 is already held", "job ID 1001 is already held", "8-processor machine", "processors", "exhausted"}
	if len(errs) != len(want) {
		t.Fatalf("%d errors, want %d", len(errs), len(want))
	}
	for i, e := range errs {
		if e == nil || !strings.Contains(e.Error(), want[i]) {
			t.Errorf("submit %d: %v, want one containing %q", i, e, want[i])
		}
	}
	if strings.Contains(errs[0].Error(), "-processor job") {
		t.Errorf("duplicate reported as a size problem: %v", errs[0])
	}
}

// A nil func forecaster is refused (it was accepted and would panic when
// asked), and so is a Period beyond varq's 2^40 s (every request would
// have been refused).
func TestSimAgentHostileConfig(t *testing.T) {
	s, err := sched.New(sched.EASY(16))
	if err != nil {
		t.Fatal(err)
	}
	m := NewSchedMachine(s, 1000)
	good := varq.ForecasterFunc(func(int, int64, int64) (float64, bool) { return 0.5, true })
	var nilF varq.ForecasterFunc
	var nilM *SchedMachine
	rc := varq.ReplanConfig{ReqProb: 0.5}
	for name, c := range map[string]struct {
		m   varq.Machine
		f   varq.Forecaster
		cfg Config
	}{
		"nil func forecaster": {m, nilF, Config{Fraction: 0.5, Replan: rc}},
		"nil pointer machine": {nilM, good, Config{Fraction: 0.5, Replan: rc}},
		"Period 2^63−1":       {m, good, Config{Fraction: 0.5, Replan: rc, Period: math.MaxInt64}},
	} {
		if _, err := New(c.m, c.f, c.cfg); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
