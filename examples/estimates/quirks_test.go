package main

import (
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// TestQuirkLogs runs the synthetic logs of the archive's held-out logs'
// quirks through the command (clitest.RunQuirks).
func TestQuirkLogs(t *testing.T) {
	if testing.Short() {
		t.Skip("many runs (-short)")
	}
	clitest.RunQuirks(t, run, [][]string{
		{"-trace", "TRACE"}, {"-trace", "TRACE", "-json", "-out", "OUT"}, {"-trace", "TRACE", "-model", "f", "-out", "OUT"},
		{"-trace", "TRACE", "-model", "fdet"}, {"-trace", "TRACE", "-model", "phi", "-json", "-out", "OUT"}, {"-trace", "TRACE", "-model", "shuffle"},
		{"-trace", "-", "-json", "-out", "OUT"}, {"-trace", "TRACE", "-procs", "8", "-emax", "1h"},
	}, nil)
}

// TestHeaderSaid: a header line the reader does not take as written (a
// MaxProcs after the jobs, or kept as text) is said (cli.Skipped.Header);
// the command ran on the other size without a word.
func TestHeaderSaid(t *testing.T) {
	clitest.HeaderSaid(t, run, [][]string{{"-trace", "TRACE", "-out", "/dev/null"}, {"-trace", "TRACE", "-json", "-out", "/dev/null"}})
}
