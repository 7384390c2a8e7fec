package main

import (
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// "qserve help" prints the usage on stdout and exits 0, as -h does and as
// "sweep help" does; it was exit 2, "unknown command".
func TestHelpCommand(t *testing.T) {
	r := clitest.Exec(command, "", "help")
	if r.Code != cli.ExitOK || !strings.HasPrefix(r.Stdout, "usage: qserve") || r.Stderr != "" {
		t.Errorf("qserve help: exit %d, stdout %.40q, stderr %q; want 0 and the usage on stdout", r.Code, r.Stdout, r.Stderr)
	}
}
