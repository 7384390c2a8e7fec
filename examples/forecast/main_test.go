package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/examples/internal/cli/clitest"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// smallLog writes a busy synthetic log of n jobs on 64 processors whose
// waits come from an EASY simulation, and returns its path.
func smallLog(t testing.TB, dir string, n int) string {
	rng := rand.New(rand.NewPCG(uint64(n), 9))
	var jobs []swf.Job
	now := int64(0)
	for i := range n {
		now += int64(rng.ExpFloat64() * 150)
		run := int64(math.Exp(4 + 4*rng.Float64()))
		size := int64(1) << rng.IntN(6)
		jobs = append(jobs, swf.Job{ID: int64(i + 1), Submit: now, Wait: -1, RunTime: run, AllocProcs: size, ReqProcs: size,
			ReqTime: run * (1 + rng.Int64N(4)), User: rng.Int64N(20), AvgCPUTime: -1, UsedMemory: -1, ReqMemory: -1,
			Status: 1, Group: rng.Int64N(3), Executable: -1, Queue: 1 + rng.Int64N(2), Partition: -1, PrecedingJob: -1, ThinkTime: -1})
	}
	res, err := sched.Run(context.Background(), sched.EASY(64), jobs)
	if err != nil {
		t.Fatal(err)
	}
	var out []swf.Job
	for _, r := range res.Records {
		out = append(out, r.SWF())
	}
	var b bytes.Buffer
	h := &swf.Header{}
	b.WriteString("; MaxProcs: 64\n")
	if err := swf.WriteAll(&b, h, out); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "small.swf")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errs bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &out, &errs)
	return code, out.String(), errs.String()
}

// -json prints one object per predictor with the fields, shares in
// [0, 1], null where a predictor gives no such figure.
func TestJSON(t *testing.T) {
	path := smallLog(t, t.TempDir(), 1500)
	code, out, errs := runCmd(t, path, "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(allPredictors) {
		t.Fatalf("%d lines, want %d: %s", len(lines), len(allPredictors), out)
	}
	for i, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		if m["predictor"] != allPredictors[i] {
			t.Errorf("line %d: predictor %v, want %s", i, m["predictor"], allPredictors[i])
		}
		for _, k := range []string{"jobs", "within2", "mean_abs_log10", "aae_s", "coverage90", "width90_s"} {
			v, ok := m[k]
			if !ok {
				t.Errorf("%s: no %s", allPredictors[i], k)
				continue
			}
			if f, isNum := v.(float64); isNum && strings.HasPrefix(k, "within") && (f < 0 || f > 1) {
				t.Errorf("%s: %s = %v outside [0, 1]", allPredictors[i], k, f)
			}
		}
		if m["jobs"].(float64) <= 0 {
			t.Errorf("%s: no job scored", allPredictors[i])
		}
		if allPredictors[i] == "qbets" {
			if m["coverage90"] != nil || m["bound_coverage"] == nil {
				t.Errorf("qbets: coverage90 %v (want null), bound_coverage %v", m["coverage90"], m["bound_coverage"])
			}
		} else if c, ok := m["coverage90"].(float64); !ok || c < 0.8 || c > 1 {
			t.Errorf("%s: coverage90 %v", allPredictors[i], m["coverage90"])
		}
	}
	// The text report names every predictor; flags may follow the trace.
	code, out, _ = runCmd(t, "-predictors", "naive,forecast", path)
	if code != 0 || !strings.Contains(out, "forecast") || !strings.Contains(out, "naive") || strings.Contains(out, "ibl") {
		t.Errorf("text: exit %d\n%s", code, out)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{}, {"-bogus", "x.swf"}, {"a.swf", "b.swf"}, {"-trace", "a.swf", "b.swf"},
		{"-predictors", "oracle", "a.swf"}, {"-machine", "-3", "a.swf"},
	} {
		if code, _, errs := runCmd(t, args...); code != cli.ExitUsage || errs == "" {
			t.Errorf("%q: exit %d, stderr %q; want 2 and a message", args, code, errs)
		}
	}
	// A predictor named twice was scored once with no word: refused, as
	// varq refuses a value given twice in its lists.
	path := smallLog(t, t.TempDir(), 300)
	if code, _, errs := runCmd(t, "-predictors", "naive, estimates,naive", path); code != cli.ExitUsage || !strings.Contains(errs, `"naive" given twice`) {
		t.Errorf("-predictors naive,estimates,naive: exit %d, stderr %q; want 2 and the name given twice", code, errs)
	}
	if code, out, _ := runCmd(t, "-help"); code != 0 || !strings.Contains(out, "usage: forecast") {
		t.Errorf("-help: exit %d, %q", code, out)
	}
}

func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.swf")
	nowait := filepath.Join(dir, "nowait.swf")
	os.WriteFile(nowait, []byte("; MaxProcs: 8\n1 0 -1 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"), 0o644)
	noMachine := filepath.Join(dir, "nomachine.swf")
	os.WriteFile(noMachine, []byte("1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{missing}, missing},
		{[]string{"-trace", nowait}, "no job with a recorded wait"},
		{[]string{noMachine}, "-machine"},
	} {
		code, out, errs := runCmd(t, c.args...)
		if code != cli.ExitError || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 1 naming %q", c.args, code, out, errs, c.want)
		}
	}
}

// TestCLI runs the commands' shared table of command-line tests.
func TestCLI(t *testing.T) {
	dir := t.TempDir()
	p := smallLog(t, dir, 300)
	missing := filepath.Join(dir, "nope.swf")
	clitest.Run(t, clitest.Command{Run: run, JSON: []string{p, "-json", "-predictors", "naive"},
		FromStdin: []string{"-", "-json", "-predictors", "naive"}, StdinFile: p,
		Missing: []string{missing}, File: missing,
		Empty: func(p string) []string { return []string{p} }, Machine: []string{"t.swf"}})
}

// TestProgressAdvances: the bar moves with the replay. A user saw
// "[    ]   0%" for the whole of a run on SDSC-SP2 on a terminal: Set was
// called outside any stage, whose weight is 0.
func TestProgressAdvances(t *testing.T) {
	t.Setenv("BATCHQ_PROGRESS_QUIET", "0s")
	var b bytes.Buffer
	bar := newBar(&b, true)
	time.Sleep(150 * time.Millisecond) // the bar redraws at most every 100 ms
	bar.Set(0.5)
	if !strings.Contains(b.String(), " 50%") {
		t.Errorf("bar %q after Set(0.5): want 50%%", b.String())
	}
	clitest.Progress(t, run, smallLog(t, t.TempDir(), 300), "-predictors", "naive")
}

// TestProgressMovesInRun: the command's own bar moves past 0% during a
// run long enough for a redraw (they are 100 ms apart). TestProgressAdvances
// checks newBar only: it passed with run back on progress.New without a
// stage (the bar at 0% throughout, 4 draws in 0.5 s here).
func TestProgressMovesInRun(t *testing.T) {
	t.Setenv("BATCHQ_PROGRESS_QUIET", "0s")
	log := smallLog(t, t.TempDir(), 60000)
	t0 := time.Now()
	r := clitest.Exec(run, "", log, "-predictors", "naive", "-progress")
	d := time.Since(t0)
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	if d < 300*time.Millisecond {
		t.Skipf("the run took %v: too short to see the bar move", d)
	}
	if !regexp.MustCompile(`\] +[1-9][0-9]*%`).MatchString(r.Stderr) {
		t.Errorf("a %v run drew no bar past 0%%: %q", d, r.Stderr)
	}
}

// TestNoTrace: no trace is a usage error whose line points to the help
// once ("(-trace FILE or FILE; -help for the flags) (-h for help)" did
// twice).
func TestNoTrace(t *testing.T) {
	r := clitest.Exec(run, "")
	if r.Code != cli.ExitUsage || !strings.Contains(r.Stderr, "missing trace") || strings.Count(r.Stderr, "help") != 1 {
		t.Errorf("exit %d, stderr %q; want %d, missing trace and one help hint", r.Code, r.Stderr, cli.ExitUsage)
	}
}
