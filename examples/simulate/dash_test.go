package main

import (
	"os"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli"
)

// -out - and -jobs-out - are usage errors (standard output carries the
// report): they made a file named "-" in the working directory, where
// TRACE - is standard input.
func TestDashOutputs(t *testing.T) {
	t.Chdir(t.TempDir())
	trace := "; MaxProcs: 8\n1 0 0 100 1 -1 -1 1 200 -1 1 1 1 1 1 -1 -1 -1\n"
	for _, flag := range []string{"-out", "-jobs-out"} {
		code, _, stderr := runIn(t, trace, flag, "-", "-")
		if code != cli.ExitUsage || !strings.Contains(stderr, flag+" -: standard output carries the report") {
			t.Errorf("%s -: exit %d, %q; want a usage error", flag, code, stderr)
		}
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error(`a file named "-" was made`)
	}
}
