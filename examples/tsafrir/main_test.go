package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
	"github.com/batchq/batchq/internal/tracetest"
)

// allLogs is the README's run: the four logs, per-event passes, with the
// EASY_PRED experiment; computed once for TestClaims and TestReadme.
var allLogs struct {
	once sync.Once
	r    *report
	err  error
}

func readmeReport(t *testing.T) *report {
	t.Helper()
	if testing.Short() {
		t.Skip("about 300 simulations on the four logs: 40 s of CPU")
	}
	for _, l := range logs {
		tracetest.Path(t, l.File)
	}
	allLogs.once.Do(func() {
		allLogs.r, allLogs.err = compute(context.Background(), options{perEvent: true, easyPred: true})
	})
	if allLogs.err != nil {
		t.Fatal(allLogs.err)
	}
	return allLogs.r
}

// TestClaims asserts what must hold whatever the log version (Tsafrir
// Ch. 4), in both pass modes: EASY_PRED is worse than EASY, EASY+ and EASY++
// are better than EASY on wait and bounded slowdown, EASY++ is better than
// EASY+ on bounded slowdown, and EASY+ accuracy is between 55% and 70%.
func TestClaims(t *testing.T) {
	r := readmeReport(t)
	t.Run("per-event", func(t *testing.T) { claims(t, r.main) })
	t.Run("per-timestamp", func(t *testing.T) { claims(t, r.other) })
}

func claims(t *testing.T, all []outcome) {
	for _, l := range logs {
		get := func(v string) (w, b, a float64) {
			s, ok := find(all, l.Name, v)
			if !ok {
				t.Fatalf("%s %s missing", l.Name, v)
			}
			return s.MeanWait, s.MeanBSLD, s.Accuracy
		}
		ew, eb, _ := get("EASY")
		pw, pb, _ := get("EASY_PRED")
		plw, plb, pla := get("EASY+")
		ppw, ppb, _ := get("EASY++")
		if pw <= ew || pb <= eb {
			t.Errorf("%s: EASY_PRED (wait %.0f, bsld %.1f) not worse than EASY (%.0f, %.1f)", l.Name, pw, pb, ew, eb)
		}
		if plw >= ew || plb >= eb {
			t.Errorf("%s: EASY+ (wait %.0f, bsld %.1f) not better than EASY (%.0f, %.1f)", l.Name, plw, plb, ew, eb)
		}
		if ppw >= ew || ppb >= eb {
			t.Errorf("%s: EASY++ (wait %.0f, bsld %.1f) not better than EASY (%.0f, %.1f)", l.Name, ppw, ppb, ew, eb)
		}
		if ppb >= plb {
			t.Errorf("%s: EASY++ bsld %.1f not better than EASY+ %.1f", l.Name, ppb, plb)
		}
		if pla < 0.55 || pla > 0.70 {
			t.Errorf("%s: EASY+ accuracy %.1f%% outside 55–70%%", l.Name, 100*pla)
		}
	}
}

// TestRun runs the program on the smallest log and checks the markdown.
func TestRun(t *testing.T) {
	tracetest.Path(t, tracetest.KTH)
	o := options{only: "kth", perEvent: true, plotDir: t.TempDir()} // the same run draws the figure too
	var buf bytes.Buffer
	if err := reproduce(context.Background(), &buf, o); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"### Table 4.1", "### Table 4.5", "### Table 4.7", "| KTH | bsld |", "(114)", "| KTH | corrections/job ± s.d. |"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, ext := range []string{".png", ".svg"} {
		if st, err := os.Stat(filepath.Join(o.plotDir, "table43"+ext)); err != nil || st.Size() < 1000 {
			t.Errorf("table43%s: %v", ext, err)
		}
	}
	if err := reproduce(context.Background(), &buf, options{only: "nope"}); err == nil {
		t.Error("no error for an unknown log")
	}
}

func TestCLI(t *testing.T) {
	dir := t.TempDir()
	clitest.WriteTrace(t, dir, tracetest.KTH, 40, 100)
	missing := filepath.Join(t.TempDir(), tracetest.KTH)
	clitest.Run(t, clitest.Command{Run: run, NoArgs: true,
		JSON:    []string{"-dir", dir, "-logs", "KTH", "-json"},
		Missing: []string{"-dir", filepath.Dir(missing), "-logs", "KTH"}, File: missing})
}

// TestPlotDirFirst: a -plot directory that cannot be made fails the run
// at once (exit 1, nothing on stdout). A user's tsafrir -plot DIR ran its
// 89 simulations, 27 s, printed the tables and then failed on mkdir.
func TestPlotDirFirst(t *testing.T) {
	dir := t.TempDir()
	clitest.WriteTrace(t, dir, tracetest.KTH, 40, 100)
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r := clitest.Exec(run, "", "-dir", dir, "-logs", "KTH", "-plot", filepath.Join(file, "figures"))
	if r.Code != 1 || r.Stdout != "" || !strings.Contains(r.Stderr, "-plot: mkdir") {
		t.Errorf("exit %d, stdout %d bytes, stderr %q; want 1 before the run, naming -plot", r.Code, len(r.Stdout), r.Stderr)
	}
}
