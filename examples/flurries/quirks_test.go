package main

import (
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// TestQuirkLogs runs the synthetic logs of the archive's held-out logs'
// quirks through the command (clitest.RunQuirks).
func TestQuirkLogs(t *testing.T) {
	const logs = "DIR(CTC-SP2-1996-3.1-cln.swf.gz,KTH-SP2-1996-2.1-cln.swf.gz,SDSC-SP2-1998-4.2-cln.swf.gz,SDSC-BLUE-2000-4.2-cln.swf.gz,LANL-CM5-1994-4.1-cln.swf.gz)"
	if testing.Short() {
		t.Skip("many runs (-short)")
	}
	clitest.RunQuirks(t, run, [][]string{
		{"-traces", logs, "-exp", "native", "-json"}, {"-traces", logs, "-exp", "native", "-sane"},
		{"-traces", logs, "-exp", "inject", "-json"}, {"-traces", logs, "-exp", "lanl"}, {"-traces", logs, "-exp", "spread"},
	}, nil)
}

// TestHeaderSaid: a header line the reader does not take as written (a
// MaxProcs after the jobs, or kept as text) is said (cli.HeaderNote on
// standard error, -json's header_warnings under logs): flurries read
// with cli.ReadLog, which dropped them, and ran on the other size
// without a word.
func TestHeaderSaid(t *testing.T) {
	const logs = "DIR(CTC-SP2-1996-3.1-cln.swf.gz,KTH-SP2-1996-2.1-cln.swf.gz,SDSC-SP2-1998-4.2-cln.swf.gz,SDSC-BLUE-2000-4.2-cln.swf.gz,LANL-CM5-1994-4.1-cln.swf.gz)"
	clitest.HeaderSaid(t, run, [][]string{{"-traces", logs, "-exp", "native"}, {"-traces", logs, "-exp", "native", "-json"}})
}
