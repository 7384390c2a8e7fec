package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
	"github.com/batchq/batchq/internal/tracetest"
)

func TestRunsOnThreeMachines(t *testing.T) {
	var paths []string
	for _, name := range []string{tracetest.SDSCBlue, tracetest.CTC, tracetest.KTH} {
		paths = append(paths, tracetest.Path(t, name))
	}
	var out bytes.Buffer
	opt := options{paths: paths, days: 10, count: 2, step: 30, trials: table62[:1]}
	if err := reproduce(&out, opt); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "| 4, 1h, 4h | 0.90 |") {
		t.Errorf("output lacks the first trial:\n%s", out.String())
	}
}

func TestCLI(t *testing.T) {
	dir := t.TempDir()
	a := clitest.WriteTrace(t, dir, "a.swf", 1500, 16)
	b := clitest.WriteTrace(t, dir, "b.swf", 1500, 8)
	missing := filepath.Join(dir, "nope.swf")
	clitest.Run(t, clitest.Command{Run: run, NoArgs: true,
		JSON:    []string{"-trace", a + "," + b, "-days", "8", "-step", "300", "-json"},
		Missing: []string{"-trace", a + "," + missing}, File: missing,
		Empty: func(p string) []string { return []string{"-trace", a + "," + p, "-days", "8"} }})
}
