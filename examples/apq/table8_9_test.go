package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

type swfJob = swf.Job

func job6(user, size, ert, run int64) swf.Job {
	return swf.Job{ID: run, Submit: 0, Wait: 0, RunTime: run, AllocProcs: size, ReqProcs: size, ReqTime: ert,
		Status: 1, User: user, Group: 1, Queue: 1}
}

// TestTable8And9 runs molding and delayed submission on 3000 jobs of
// SDSC-SP2 (2000 history, 1000 treated) through the command's path.
func TestTable8And9(t *testing.T) {
	if testing.Short() {
		t.Skip("five EASY simulations with APQ; skipped in -short mode")
	}
	out := runQuick(t, "VIII,IX")
	for _, want := range []string{"## Table VIII", "## Table IX", "| SDSC SP2 | 1000 |", "(245)", "(232)", "Size-aware wait", "Molded jobs by outcome (delayed submission, size-aware wait)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

// TestTable8NoGrow: with -nogrow no job is molded to a larger size (the
// detail row's grown count is 0) and the table says it is not the paper's.
func TestTable8NoGrow(t *testing.T) {
	if testing.Short() {
		t.Skip("three EASY simulations with APQ; skipped in -short mode")
	}
	out := runQuickWith(t, "VIII", options{NoGrow: true})
	if !strings.Contains(out, "-nogrow:") {
		t.Error("output does not flag the -nogrow diagnostic")
	}
	if !regexp.MustCompile(`\| SDSC SP2 \| \d+ \| \d+ / 0 / \d+ / \d+ \|`).MatchString(out) {
		t.Error("grown jobs with -nogrow, or no detail row")
	}
}

func TestFloorFlag(t *testing.T) {
	err := run(&strings.Builder{}, options{Dir: t.TempDir(), Floor: "both"})
	if err == nil || !strings.Contains(err.Error(), "-floor") {
		t.Errorf("bad -floor: err = %v", err)
	}
}

// TestTable8FloorOnly: -flooronly runs the baseline and the size-aware
// column only (the paper's cells print —), with the default floor.
func TestTable8FloorOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("two EASY simulations with APQ; skipped in -short mode")
	}
	out := runQuickWith(t, "VIII", options{FloorOnly: true})
	for _, want := range []string{"-flooronly:", "-floor queue", "| SDSC SP2 | 1000 | ", "— (245) | — (-26.0%) | — |", "Molded jobs by outcome (size-aware wait)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if strings.Contains(out, "Molded jobs by outcome (paper's method)") {
		t.Error("outcome table of the paper's method, which did not run")
	}
}
