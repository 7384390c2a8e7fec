package main

import (
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// An unknown -exp names every value -exp takes, "none" (the figures of
// -plot alone, as the README and -h say) included.
func TestUnknownExperimentNamesNone(t *testing.T) {
	r := clitest.Exec(run, "", "-exp", "nosuch")
	if r.Code != cli.ExitUsage || !strings.Contains(r.Stderr, "want all, none, native") {
		t.Errorf("-exp nosuch: exit %d, stderr %q; want a usage error listing all, none, native, …", r.Code, r.Stderr)
	}
}
