package forecast

import (
	"context"
	"testing"

	"github.com/batchq/batchq/swf"
)

// The pool grows to fit what runs (16 processors running on a snapshot
// machine of 10), not what waits: a waiting job of 12 processors, larger
// than the machine, is −1 as Forecast's doc says, and examples/forecast
// answers it with the naive median; one of 5 is forecast as before. In
// the grown pool the 12 started at 100, once what ran ended.
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

// Running jobs holding more than the machine (14 processors on 10): the
// pool grows to 14 and stays so, as a machine whose jobs shared
// processors (LANL-CM5's non-dedicated ones) ran more than its size; the
// 4-processor job starts at 90, when B's end frees 6. Taking the excess
// as the first processors to free instead (B keeping 2 of its 6) would
// start it at 140, when A ends: measured, that lost 10 points of the
// estimates' simulation on LANL-CM5 (Forecaster.Forecast). Each
// simulation that grew the pool is counted (Online.Overfull).
func TestOversizedRunningGrowsPool(t *testing.T) {
	a := job(1, 0, 0, -1, 8, 140, 1) // ends at 140 (Estimates: its estimate)
	b := job(2, 0, 0, -1, 6, 90, 2)  // ends at 90
	for _, tc := range []struct {
		name    string
		running []swf.Job
		want    int64
		machine int64
		over    int
	}{
		{"A and B", []swf.Job{a, b}, 90, 14, 1},
		{"A alone", []swf.Job{a}, 140, 10, 0},
	} {
		f, err := New(Config{Estimates: true})
		if err != nil {
			t.Fatal(err)
		}
		s := &Snapshot{Now: 40, MachineSize: 10, Running: tc.running, Waiting: []swf.Job{job(4, 30, -1, -1, 4, 10, 4)}}
		got, err := f.Forecast(context.Background(), s)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got[0] != tc.want || f.lastMachine != tc.machine || f.overfull != tc.over {
			t.Errorf("%s: start %d on %d processors, %d counted; want %d on %d, %d", tc.name, got[0], f.lastMachine, f.overfull, tc.want, tc.machine, tc.over)
		}
	}
}
