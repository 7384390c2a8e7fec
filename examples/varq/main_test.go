package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
	"github.com/batchq/batchq/internal/tracetest"
)

func TestRunsOnATraceSlice(t *testing.T) {
	p := tracetest.Path(t, tracetest.SDSCBlue)
	var out bytes.Buffer
	opt := options{paths: []string{p}, jobs: 5000, seed: 1, fractions: []float64{0.10}, targets: []float64{0.5}}
	if err := reproduce(&out, opt); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1152 processors, 5000 sane jobs", "| 10 | 0.50 |", "| 0.54 |"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// The shape Table 5.6 shows: the achieved fraction falls as more of the
// workload uses VARQ (10 % → 50 % → 95 %, target 0.75), because requests
// of one period share a start time and compete for it. 10 000 jobs of
// SDSC-BLUE (a few seconds).
func TestAchievedDegradesWithFraction(t *testing.T) {
	if testing.Short() {
		t.Skip("trace simulation")
	}
	w := blueSlice(t, 10000)
	prev := 2.0
	for _, f := range []float64{0.10, 0.50, 0.95} {
		c, err := simulate(w, f, 0.75, options{seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%.0f %% VARQ: pred %.2f, achieved %.2f, %d accepted", 100*f, c.MeanPred, c.Success, c.Count)
		if c.Success >= prev {
			t.Errorf("%.0f %% VARQ achieved %.2f, not below the smaller fraction's %.2f", 100*f, c.Success, prev)
		}
		prev = c.Success
	}
}

// The diagnosis of README.md: at 10 % the gap to the target comes from the
// common start times. Giving each request its own start time (the same
// lead-time distribution, agent.Config.Unsynchronized) raises the
// achieved fraction by more than 0.05 at every target.
func TestCommonStartTimesCauseTheGap(t *testing.T) {
	if testing.Short() {
		t.Skip("trace simulation")
	}
	w := blueSlice(t, 10000)
	for _, q := range targets {
		sync, err := simulate(w, 0.10, q, options{seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		own, err := simulate(w, 0.10, q, options{seed: 1, unsync: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("target %.2f: common start times %.2f (%d), own start times %.2f (%d)", q, sync.Success, sync.Count, own.Success, own.Count)
		if own.Success < sync.Success+0.05 {
			t.Errorf("target %.2f: own start times achieve %.2f, common %.2f", q, own.Success, sync.Success)
		}
	}
}

func blueSlice(t *testing.T, n int) workload {
	t.Helper()
	w, err := loadWorkload(tracetest.Path(t, tracetest.SDSCBlue), n, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// -plot draws the Figure 5.4 request's trajectory from the first VARQ cell
// and names the log in the file.
func TestPlotWritesTheTrajectory(t *testing.T) {
	p := tracetest.Path(t, tracetest.SDSCBlue)
	dir := t.TempDir()
	opt := options{paths: []string{p}, jobs: 2000, seed: 1, fractions: []float64{0.10}, targets: []float64{0.75}, plot: dir}
	if err := reproduce(io.Discard, opt); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".png", ".svg"} {
		f := filepath.Join(dir, "varq-sdsc-blue-trajectory"+ext)
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// Diagnosis 2 of README.md: where QBETS gives a bound at submission, the
// padded VARQ jobs are calibrated (achieved ≥ target − 0.05 at 0.50 and
// 0.75); the ones submitted while it was silent succeed far less. 10 000
// jobs of SDSC-BLUE, 10 % VARQ jobs, re-planning only at the submission
// (with bound 0.640/0.708, silent 0.174/0.270 at 0.50/0.75). At 0.95 the
// padded jobs are short even with a bound (0.858 here, 0.911 on 50 000
// jobs with -every 30), so 0.95 is not asserted.
func TestSilentSubmissionsCarryTheShortfall(t *testing.T) {
	if testing.Short() {
		t.Skip("trace simulation")
	}
	w := blueSlice(t, 10000)
	for _, q := range []float64{0.50, 0.75} {
		c, err := simulate(w, 0.10, q, options{seed: 1, diag: io.Discard})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("target %.2f: achieved %.2f; with a bound %.3f (%d), silent %.3f (%d)",
			q, c.Success, c.diag.answered.rate(), c.diag.answered.n, c.diag.silent.rate(), c.diag.silent.n)
		if c.diag.answered.n == 0 || c.diag.silent.n == 0 {
			t.Fatalf("target %.2f: %d submissions with a bound, %d silent", q, c.diag.answered.n, c.diag.silent.n)
		}
		if c.diag.answered.rate() < q-0.05 {
			t.Errorf("target %.2f: padded jobs submitted with a bound achieve %.3f", q, c.diag.answered.rate())
		}
		if c.diag.silent.rate() > c.diag.answered.rate()-0.2 {
			t.Errorf("target %.2f: silent submissions achieve %.3f, not far below %.3f", q, c.diag.silent.rate(), c.diag.answered.rate())
		}
	}
}

// Crowd-aware planning ("planned", beyond the thesis): planning
// each request as one job with the agent's other requests for its start
// time that are queued or planned to submit earlier raises the 10 % cells
// of 10 000 SDSC-BLUE jobs by more than 0.05 at every target.
func TestCrowdAwareRaisesTheTenPercentCells(t *testing.T) {
	if testing.Short() {
		t.Skip("trace simulation")
	}
	w := blueSlice(t, 10000)
	for _, q := range targets {
		off, err := simulate(w, 0.10, q, options{seed: 1, every: 30})
		if err != nil {
			t.Fatal(err)
		}
		crowd, err := simulate(w, 0.10, q, options{seed: 1, every: 30, crowd: "planned"})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("target %.2f: thesis method %.3f (%d accepted, used/req %.2f), crowd-aware %.3f (%d, %.2f)",
			q, off.Success, off.Count, off.Ratio(), crowd.Success, crowd.Count, crowd.Ratio())
		if crowd.Success < off.Success+0.05 {
			t.Errorf("target %.2f: crowd-aware achieves %.3f, thesis method %.3f", q, crowd.Success, off.Success)
		}
	}
}

// Issue #7's acceptance, with crowd-aware planning: at 10 % VARQ jobs the
// achieved fraction is at least the target − 0.05 at every target, on
// SDSC-BLUE (its first 10,000 sane jobs, to keep the test short; the
// README has the 50,000-job and whole-log runs) and SDSC-SP2 (whole log).
// CTC-SP2 and KTH-SP2 miss the 0.95 target (README); they are not here.
func TestCrowdAwareMeetsTheTenPercentTargets(t *testing.T) {
	if testing.Short() {
		t.Skip("trace simulation")
	}
	sp2, err := loadWorkload(tracetest.Path(t, tracetest.SDSCSP2), 0, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []workload{blueSlice(t, 10000), sp2} {
		for _, q := range targets {
			r, err := simulate(w, 0.10, q, options{seed: 1, every: 30, crowd: "planned"})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s target %.2f: achieved %.3f (%d accepted, used/req %.2f)", w.name, q, r.Success, r.Count, r.Ratio())
			if r.Success < q-0.05 {
				t.Errorf("%s target %.2f: crowd-aware achieves %.3f", w.name, q, r.Success)
			}
		}
	}
}

func TestCLI(t *testing.T) {
	dir := t.TempDir()
	trace := clitest.WriteTrace(t, dir, "t.swf", 60, 16)
	missing := filepath.Join(dir, "nope.swf")
	clitest.Run(t, clitest.Command{Run: run,
		JSON:      []string{trace, "-fractions", "0.1", "-targets", "0.5", "-json"},
		FromStdin: []string{"-trace", "-", "-fractions", "0.1", "-targets", "0.5", "-json"}, StdinFile: trace,
		Missing: []string{"-trace", missing}, File: missing,
		Empty: func(p string) []string { return []string{"-trace", p} }})
}

// TestPlotDirFirst: a -plot directory that cannot be made fails before
// the trace is read, naming -plot (h-user's abe2e4b had no test here).
func TestPlotDirFirst(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r := clitest.Exec(run, "", "-trace", filepath.Join(t.TempDir(), "missing.swf"), "-plot", filepath.Join(file, "figures"))
	if r.Code != 1 || r.Stdout != "" || !strings.Contains(r.Stderr, "-plot: mkdir") {
		t.Errorf("exit %d, stdout %d bytes, stderr %q; want 1 naming -plot", r.Code, len(r.Stdout), r.Stderr)
	}
}
