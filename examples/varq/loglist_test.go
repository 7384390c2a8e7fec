package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// An empty item in -trace is a usage error found before any log runs:
// "a.swf," simulated a.swf and printed its table, then failed with
// "open : no such file or directory" (exit 1).
func TestTraceListEmptyItem(t *testing.T) {
	a := clitest.WriteTrace(t, t.TempDir(), "a.swf", 300, 16)
	for _, args := range [][]string{{"-trace", a + ","}, {"-trace", "," + a}, {a, ""}} {
		var out, errs bytes.Buffer
		code := run(context.Background(), args, strings.NewReader(""), &out, &errs)
		if code != cli.ExitUsage || out.Len() > 0 || !strings.Contains(errs.String(), "is empty") {
			t.Errorf("%q: exit %d, stderr %q, %d bytes of report; want 2, no report, the empty item named", args, code, errs.String(), out.Len())
		}
	}
}
