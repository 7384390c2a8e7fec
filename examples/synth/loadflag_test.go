package main

import (
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// A -load the model cannot reach names the flag, as -machine and
// -start-hour do: it read "synth: target load 1e+20 outside the reachable
// range", naming no flag.
func TestUnreachableLoadNamed(t *testing.T) {
	for _, l := range []string{"1e20", "0.001"} {
		r := clitest.Exec(run, "", "-out", t.TempDir()+"/x.swf", "-load", l)
		if r.Code != 2 || !strings.HasPrefix(r.Stderr, "synth: -load ") || !strings.Contains(r.Stderr, "reachable range") {
			t.Errorf("-load %s: exit %d, stderr %q; want 2 and \"synth: -load …: target load … reachable range\"", l, r.Code, r.Stderr)
		}
	}
}
