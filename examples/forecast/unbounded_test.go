package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnboundedWidthSaid: on a log too short for the intervals to have
// learnt any error, the median widths are unbounded. The text says why
// beside its ∞, and -json, whose width is then null as for a predictor
// that gives no interval, names the levels in unbounded_widths.
func TestUnboundedWidthSaid(t *testing.T) {
	path := filepath.Join(t.TempDir(), "one.swf")
	log := "; MaxProcs: 16\n1 0 10 100 4 -1 -1 4 200 -1 1 1 -1 -1 1 -1 -1 -1\n"
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd(t, path, "-predictors", "forecast,naive")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "unbounded (∞): the median interval of forecast at 50/80/90%") {
		t.Errorf("no note on the ∞ widths:\n%s", out)
	}
	rows := jsonRows(t, path, "-predictors", "forecast,naive")
	f := rows["forecast"]
	if f["width90_s"] != nil || f["coverage90"] != 1.0 {
		t.Fatalf("forecast: width90_s %v, coverage90 %v: want null and 1 (the case tested)", f["width90_s"], f["coverage90"])
	}
	u, _ := f["unbounded_widths"].([]any)
	if len(u) != 3 || u[0] != 50.0 || u[2] != 90.0 {
		t.Errorf("forecast: unbounded_widths %v, want [50 80 90]", f["unbounded_widths"])
	}
	if _, ok := rows["naive"]["unbounded_widths"]; ok {
		t.Errorf("naive, no answer: unbounded_widths %v, want absent", rows["naive"]["unbounded_widths"])
	}
}
