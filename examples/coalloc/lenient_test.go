package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// A log with one malformed line fails without -lenient, the error saying
// that -lenient skips such lines, and is read with it, the line skipped
// and said on standard error (with the jobs left out) and, in -json,
// keyed beside the sections (clitest.Lenient). One machine, the least
// days: the quickest run.
func TestLenient(t *testing.T) {
	clitest.Lenient(t, clitest.LenientCase{Run: run, N: 1500, TextOnStderr: true,
		Text: []string{"coalloc: one-bad-line.swf: skipped 1 malformed lines (-lenient); first: swf: line 16, field 4 (run time)"},
		Args: func(path string) []string {
			return []string{"-trace", path, "-count", "1", "-days", "8", "-step", "60"}
		}})
}

// With several logs, -json's skipped lines are of all logs, each error
// named by its log (cli.Skipped.Add), and the text says each log's.
func TestLenientSeveralLogs(t *testing.T) {
	dir := t.TempDir()
	a := clitest.WriteTrace(t, dir, "a.swf", 1500, 64)
	b := clitest.WriteTrace(t, dir, "b.swf", 1500, 64)
	for _, p := range []string{a, b} {
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("9999 x\n")
		f.Close()
	}
	r := clitest.Exec(run, "", "-trace", a+","+b, "-days", "8", "-step", "60", "-lenient", "-json")
	var got struct {
		Lines  int      `json:"malformed_lines_skipped"`
		Errors []string `json:"skipped"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &got); r.Code != 0 || err != nil {
		t.Fatalf("exit %d, %v: %s", r.Code, err, r.Stderr)
	}
	if got.Lines != 2 || len(got.Errors) != 2 || !strings.HasPrefix(got.Errors[0], "a.swf: swf: line 1506") || !strings.HasPrefix(got.Errors[1], "b.swf: swf: line 1506") {
		t.Errorf("-json: %d lines skipped, %q; want 2, one of a.swf's line 1506 and one of b.swf's", got.Lines, got.Errors)
	}
	for _, w := range []string{"coalloc: a.swf: skipped 1 malformed lines", "coalloc: b.swf: skipped 1 malformed lines"} {
		if !strings.Contains(r.Stderr, w) {
			t.Errorf("stderr %q; want %q", r.Stderr, w)
		}
	}
}

// A -lenient log left with no sane job says the lines skipped too.
func TestLenientNothingLeft(t *testing.T) {
	clitest.NothingLeft(t, clitest.LenientCase{Run: run, Args: func(path string) []string {
		return []string{"-trace", path, "-count", "1", "-days", "8"}
	}}, "no sane job (1 record")
}
