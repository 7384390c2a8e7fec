package main

import (
	"bytes"
	"strings"
	"testing"
)

// The plain report (a spec without "report") shows each run's simulated,
// averaged and rejected jobs, and a run that averaged no job (every line
// of a log rejected, here 375 of 376 under one job number) has no
// figures: "–", said under the table, not a mean wait of 0.0 read as a
// result.
func TestPlainReportDegenerate(t *testing.T) {
	lines := []Line{
		{Run: 0, Params: Params{Trace: "dupid", Policy: "EASY"}, Summary: Metrics{Jobs: 1, Included: 0, Rejected: 375}},
		{Run: 1, Params: Params{Trace: "kth", Policy: "EASY"}, Summary: Metrics{Jobs: 376, Included: 365, MeanWait: 2913, MeanBSLD: 51.1, Accuracy: 0.336}},
	}
	var b bytes.Buffer
	if err := report(&b, &Spec{Name: "x"}, lines); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	rows := strings.Split(out, "\n")
	if !strings.Contains(out, "| jobs | averaged | rejected |") {
		t.Errorf("no job columns:\n%s", out)
	}
	if r := rows[2]; !strings.Contains(r, "| 1 | 0 | 375 | – | – | – |") {
		t.Errorf("degenerate run's row %q, want its counts and – figures", r)
	}
	if r := rows[3]; !strings.Contains(r, "| 376 | 365 | 0 | 49 | 51 | 34 |") {
		t.Errorf("row %q", r)
	}
	if !strings.Contains(out, "run 0 averaged no job") {
		t.Errorf("no note on run 0:\n%s", out)
	}
}
