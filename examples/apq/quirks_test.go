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
