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
		{"-traces", "DIR(SDSC-SP2-1998-4.2-cln.swf.gz)", "-only", "SP2", "-quick", "-json"}, {"-traces", "DIR(SDSC-SP2-1998-4.2-cln.swf.gz)", "-only", "SP2", "-quick"},
	}, nil)
}

// TestHeaderSaid: a header line the reader does not take as written (a
// MaxProcs after the jobs, or kept as text) is said in the report
// (cli.HeaderNote; -json: the first section's text): apq read with
// cli.ReadLog, which dropped them, and ran on the other size without a
// word. Table V only: the others want more than the quirk log's 24 jobs.
func TestHeaderSaid(t *testing.T) {
	clitest.HeaderSaid(t, run, [][]string{{"-traces", "DIR(SDSC-SP2-1998-4.2-cln.swf.gz)", "-only", "SP2", "-quick", "-tables", "V"}, {"-traces", "DIR(SDSC-SP2-1998-4.2-cln.swf.gz)", "-only", "SP2", "-quick", "-tables", "V", "-json"}})
}
