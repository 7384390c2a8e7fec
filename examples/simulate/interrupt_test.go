package main

import (
	"context"
	"io"
	"runtime"
	"strings"
	"testing"
)

// inSimFinish tells whether sched's Finish is on the caller's stack.
func inSimFinish() bool {
	pc := make([]uintptr, 64)
	frames := runtime.CallersFrames(pc[:runtime.Callers(2, pc)])
	for {
		f, more := frames.Next()
		if strings.Contains(f.Function, "sched.(*Sim).finish") {
			return true
		}
		if !more {
			return false
		}
	}
}

// cancelledInFinish is a context cancelled from the moment sched's Finish
// looks at it: a SIGTERM that comes after the last arrival.
type cancelledInFinish struct{ context.Context }

func (c cancelledInFinish) Err() error {
	if inSimFinish() {
		return context.Canceled
	}
	return nil
}

// TestInterruptAfterLastArrival: an interrupt is heard while the run goes
// on after the last arrival, on the streamed path and on the whole read
// (-check). Every job of this log arrives at 0, so all the work is
// Finish's, which took no context and ran to the end: a heavy
// conservative run on nodes went on for minutes after a SIGTERM.
func TestInterruptAfterLastArrival(t *testing.T) {
	path := writeLog(t, "at0", 5000, "", func(i int, f []int64) { f[1] = 0 })
	for _, extra := range [][]string{nil, {"-check"}} {
		o, err := parse(append(append([]string{"-policy", "easy"}, extra...), path), io.Discard, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		ctx := cancelledInFinish{context.Background()}
		if err := simulate(ctx, o, nil, io.Discard, io.Discard); err == nil || err.Error() != "interrupted" {
			t.Errorf("%v: an interrupt after the last arrival: %v, want interrupted", extra, err)
		}
		if err := simulate(context.Background(), o, nil, io.Discard, io.Discard); err != nil {
			t.Errorf("%v: %v", extra, err)
		}
	}
}
