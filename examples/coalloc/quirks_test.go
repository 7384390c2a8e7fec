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
		{"-trace", "TRACE,TRACE", "-json", "-days", "8"},
	}, nil)
}

// TestHeaderSaid: a header line the reader does not take as written (a
// MaxProcs after the jobs, or kept as text) is said (cli.Skipped.Header);
// the command ran on the other size without a word.
func TestHeaderSaid(t *testing.T) {
	clitest.HeaderSaid(t, run, [][]string{{"-trace", "TRACE,TRACE", "-days", "8"}, {"-trace", "TRACE,TRACE", "-json", "-days", "8"}, {"-trace", "TRACE,TRACE", "-json", "-lenient", "-days", "8"}})
}
