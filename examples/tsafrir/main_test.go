package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
)

// TestClaims runs the four logs and asserts what the issue says must hold
// whatever the log version (Tsafrir Ch. 4): EASY_PRED is worse than EASY,
// EASY+ and EASY++ are better than EASY on wait and bounded slowdown,
// EASY++ is better than EASY+ on bounded slowdown, and EASY+ accuracy is
// between 55% and 70%.
func TestClaims(t *testing.T) {
	if testing.Short() {
		t.Skip("72 EASY runs on the four logs: about 12 s, over 2 min under -race")
	}
	defer func(v bool) { perEvent = v }(perEvent)
	for _, pe := range []bool{true, false} {
		perEvent = pe
		t.Run(map[bool]string{true: "per-event", false: "per-timestamp"}[pe], claims)
	}
}

func claims(t *testing.T) {
	var all []outcome
	for _, l := range logs {
		path := tracetest.Path(t, l.File)
		out, _, err := simulate(context.Background(), path, l)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, out...)
	}
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
	// The same run draws the figure too.
	defer func(d string) { plotDir = d }(plotDir)
	plotDir = t.TempDir()
	var buf bytes.Buffer
	if err := run(context.Background(), &buf, "", "KTH"); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"### Table 4.1", "### Table 4.7", "| KTH | bsld |", "(114)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, ext := range []string{".png", ".svg"} {
		if st, err := os.Stat(filepath.Join(plotDir, "table43"+ext)); err != nil || st.Size() < 1000 {
			t.Errorf("table43%s: %v", ext, err)
		}
	}
	if err := run(context.Background(), &buf, "", "nope"); err == nil {
		t.Error("no error for an unknown log")
	}
}
