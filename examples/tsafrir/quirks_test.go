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
		{"-dir", "DIR(SDSC-SP2-1998-4.2-cln.swf.gz)", "-logs", "SDSC", "-json"}, {"-dir", "DIR(KTH-SP2-1996-2.1-cln.swf.gz)", "-logs", "KTH"},
		{"-dir", "DIR(CTC-SP2-1996-3.1-cln.swf.gz,KTH-SP2-1996-2.1-cln.swf.gz,SDSC-SP2-1998-4.2-cln.swf.gz,SDSC-BLUE-2000-4.2-cln.swf.gz)", "-per-event=false"},
	}, nil)
}

// TestHeaderSaid: a header line the reader does not take as written (a
// MaxProcs after the jobs, or kept as text) is said under the job sets
// (cli.HeaderNote; -json: in the section's text): tsafrir read with
// cli.ReadLog, which dropped them, and said nothing of them.
func TestHeaderSaid(t *testing.T) {
	clitest.HeaderSaid(t, run, [][]string{{"-dir", "DIR(KTH-SP2-1996-2.1-cln.swf.gz)", "-logs", "KTH"}, {"-dir", "DIR(SDSC-SP2-1998-4.2-cln.swf.gz)", "-logs", "SDSC", "-json"}})
}
