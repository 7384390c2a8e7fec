package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// A log with one malformed line fails without -lenient, the error saying
// that -lenient skips such lines, and is read with it, the line skipped
// and said in the text and in -json (clitest.Lenient).
func TestLenient(t *testing.T) {
	clitest.Lenient(t, clitest.LenientCase{Run: run, N: 60, Args: func(path string) []string { return []string{path} }})
}

// A -lenient log left with no job with a wait says the lines skipped too.
func TestLenientNothingLeft(t *testing.T) {
	clitest.NothingLeft(t, clitest.LenientCase{Run: run, Args: func(path string) []string { return []string{path} }},
		"no job with a recorded wait and submit time (nothing to score)")
}

// A nodes file's malformed line fails without -lenient, the error saying
// that -lenient skips it (it does: TestNodesReportSaid's words).
func TestLenientNodesHint(t *testing.T) {
	dir := t.TempDir()
	trace, nodes := filepath.Join(dir, "log.swf"), filepath.Join(dir, "nodes.csv")
	log := "; MaxProcs: 8\n1 0 10 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n2 5 3 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n"
	if err := os.WriteFile(trace, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(nodes, []byte("kind,count,cores,memory,gpus,gpu_model\na,x,4,0,0,\nb,2,4,100,0,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCmd(t, "-nodes", nodes, "-predictors", "naive", trace)
	if code != 1 || !strings.Contains(stderr, `line 2, field count (column 2): "x": not a number (-lenient skips malformed lines, counted and reported)`) {
		t.Errorf("strict: exit %d, %s; want 1 naming line 2 and saying that -lenient skips it", code, stderr)
	}
	code, stdout, stderr := runCmd(t, "-nodes", nodes, "-predictors", "naive", "-lenient", trace)
	if code != 0 || !strings.Contains(stdout, "-nodes nodes.csv: lines skipped: malformed record 1") {
		t.Errorf("-lenient: exit %d, %s%s; want the line skipped", code, stdout, stderr)
	}
}
