package main

import (
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/varq/molding"
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
	err := reproduce(&strings.Builder{}, options{Dir: t.TempDir(), Floor: "both"})
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

// TestSizeAwareMoldingSP2 pins what the size-aware wait is for, on
// SDSC-SP2's Table IX window (jobs #1–10,000 history, #10,001–16,000
// molded): with APQ alone (the paper's method) molding raises the mean
// response over the baseline, because APQ predicts grown jobs' waits as
// if size were free (README: 459.1 → 577.6 min); with APQ floored by the
// queue profile (the default size-aware wait) it lowers it (156.5 min).
// Three simulations, about a minute; skipped in -short mode.
func TestSizeAwareMoldingSP2(t *testing.T) {
	if testing.Short() {
		t.Skip("three 16,000-job EASY simulations with APQ; skipped in -short mode")
	}
	tr, err := loadTrace(tracetest.Path(t, tracetest.SDSCSP2), "SDSC SP2", filterRan, 16000)
	if err != nil {
		t.Fatal(err)
	}
	funcs, err := strategyFuncs(tr, 10000)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{Traces: []*trace{tr}, Seed: 1, Floor: floorQueue, Log: io.Discard}
	resp := map[string]float64{}
	for _, c := range []struct {
		name, floor string
		s           string
	}{{"baseline", floorOff, "baseline"}, {"paper", floorOff, "molding"}, {"size-aware", floorQueue, "molding"}} {
		r, err := runStrategy(e, tr, molding.StrategyConfig{Strategy: c.s, History: 10000, Window: 6000, Funcs: funcs, Mold: molding.Config{Seed: e.Seed}}, c.floor)
		if err != nil {
			t.Fatal(err)
		}
		resp[c.name] = r.res.MeanResp / 60
		t.Logf("%s: mean response %.1f min, grown %d, shrunk %d (%v)", c.name, resp[c.name], r.res.Grown, r.res.Shrunk, r.elapsed)
	}
	if resp["paper"] <= resp["baseline"] {
		t.Errorf("APQ alone: molding %.1f min ≤ baseline %.1f; the README says it loses here (577.6 vs 459.1): re-measure and update it", resp["paper"], resp["baseline"])
	}
	if resp["size-aware"] >= resp["baseline"] {
		t.Errorf("size-aware wait: molding %.1f min ≥ baseline %.1f (README: 156.5 vs 459.1)", resp["size-aware"], resp["baseline"])
	}
}
