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
