package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// gcPercentNow is the collector's setting (GOGC), left as it was.
func gcPercentNow() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

// TestStreamGCPercent: a streamed read doubles GOGC for its first
// smallRun lines only, a held rest read as one piece included, leaves
// GOGC=off off, and gives the setting back on every return: a finished
// run, a run with the largest estimate raised, a start again (errRestart), an
// interrupt. A GOGC of 2^30 doubles to the runtime's largest, not to off.
func TestStreamGCPercent(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	const n = smallRun + 4*streamPiece + 100
	header := fmt.Sprintf("; MaxJobs: %d\n", n)
	write := func(name string, edit func(i int, f []int64)) string { return writeLog(t, name, n, header, edit) }
	// Held from line 20,001 on (past holdAfter and a fifth of n): the
	// rest, past smallRun, is one piece.
	held := write("held", func(i int, f []int64) {
		if i == 20000 {
			f[8] = -1
		}
	})
	early := write("early", func(i int, f []int64) { // raised
		if i == 10 {
			f[8] = -1
		}
	})
	restart := write("restart", func(i int, f []int64) {
		if i == 3000 {
			f[0] = 5
		}
	})
	run := func(path string, ctx context.Context, base int) error {
		t.Helper()
		o, err := parse([]string{"-policy", "easy", path}, io.Discard, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		errs := 0
		set := func(frac float64) {
			lines := int(math.Round(frac / 0.9 * n))
			got, want := gcPercentNow(), base
			if base >= 0 && lines < smallRun {
				want = min(2*base, math.MaxInt32) // (the runtime's int32)
			}
			if got != want && errs < 5 {
				errs++
				t.Errorf("%s, GOGC %d: %d lines in, GOGC is %d, want %d", filepath.Base(path), base, lines, got, want)
			}
		}
		_, err = stream(ctx, o, set)
		if got := gcPercentNow(); got != base {
			t.Errorf("%s, GOGC %d: after the run (%v), GOGC is %d", filepath.Base(path), base, err, got)
		}
		return err
	}
	for _, base := range []int{100, 50, -1, 1 << 30} {
		debug.SetGCPercent(base)
		for _, p := range []string{held, early} {
			if err := run(p, context.Background(), base); err != nil {
				t.Errorf("%s: %v", p, err)
			}
		}
		if err := run(restart, context.Background(), base); !errors.Is(err, errRestart) {
			t.Errorf("%s: %v, want errRestart", restart, err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := run(held, ctx, base); err == nil {
			t.Errorf("an interrupted run: no error")
		}
	}
}
