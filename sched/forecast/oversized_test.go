package forecast

import (
	"context"
	"testing"

	"github.com/batchq/batchq/swf"
)

// A waiting job of 12 processors, larger than the snapshot's machine of
// 10, is −1 as Forecast's doc says (examples/forecast answers it with the
// naive median), even while a running job holds 16 (a log's overlapping
// records: drainExcess keeps 10 of them); one of 5 starts once the
// running job ends.
func TestWaitingLargerThanMachine(t *testing.T) {
	f, err := New(Config{Estimates: true})
	if err != nil {
		t.Fatal(err)
	}
	s := &Snapshot{Now: 40, MachineSize: 10,
		Running: []swf.Job{job(1, 0, 0, -1, 16, 100, 1)},
		Waiting: []swf.Job{job(2, 10, -1, -1, 12, 50, 1), job(3, 20, -1, -1, 5, 30, 1)},
	}
	got, err := f.Forecast(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{-1, 100}; !equal(got, want) {
		t.Errorf("starts %v, want %v", got, want)
	}
	if at, err := f.WhatIf(context.Background(), s, job(9, 40, -1, -1, 11, 10, 2)); err != nil || at != -1 {
		t.Errorf("what-if larger than the machine: %d (%v), want −1", at, err)
	}
}

// Running jobs holding more than the machine (14 and then 17 processors
// on 10): the excess is the first to free, so the running jobs ending
// first give it up, and no waiting job starts before it has drained. A
// pool grown to 14 (this package's old way) started the 4-processor job
// at 90, when B's end freed 6 beside what the machine never had; grown to
// 17, the 2-processor one at 80, when C ended. On the machine of 10, A's 8
// leave 2 free from 90 on, 10 from 140.
func TestOversizedRunningDrains(t *testing.T) {
	a := job(1, 0, 0, -1, 8, 140, 1) // ends at 140 (Estimates: its estimate)
	b := job(2, 0, 0, -1, 6, 90, 2)  // ends at 90, keeps 2
	c := job(3, 20, 0, -1, 3, 60, 3) // ends at 80: wholly excess, left out
	for _, tc := range []struct {
		name    string
		running []swf.Job
		waiting []swf.Job
		want    []int64
		excess  bool
	}{
		{"A and B", []swf.Job{a, b}, []swf.Job{job(4, 30, -1, -1, 4, 10, 4)}, []int64{140}, true},
		{"A, B and C", []swf.Job{a, b, c}, []swf.Job{job(4, 30, -1, -1, 2, 10, 4)}, []int64{90}, true},
		{"C ahead in Running", []swf.Job{c, a, b}, []swf.Job{job(4, 30, -1, -1, 2, 10, 4)}, []int64{90}, true},
		{"a whole machine waits", []swf.Job{a, b, c}, []swf.Job{job(4, 30, -1, -1, 10, 10, 4), job(5, 31, -1, -1, 2, 10, 5)}, []int64{140, 90}, true},
		{"fits", []swf.Job{a}, []swf.Job{job(4, 30, -1, -1, 2, 10, 4)}, []int64{40}, false},
	} {
		f, err := New(Config{Estimates: true})
		if err != nil {
			t.Fatal(err)
		}
		s := &Snapshot{Now: 40, MachineSize: 10, Running: tc.running, Waiting: tc.waiting}
		got, err := f.Forecast(context.Background(), s)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !equal(got, tc.want) {
			t.Errorf("%s: starts %v, want %v", tc.name, got, tc.want)
		}
		if want := map[bool]int{true: 1}[tc.excess]; f.overfull != want {
			t.Errorf("%s: %d simulations counted over the machine, want %d", tc.name, f.overfull, want)
		}
		if f.lastMachine != 10 {
			t.Errorf("%s: simulated a machine of %d, want the snapshot's 10", tc.name, f.lastMachine)
		}
	}
}
