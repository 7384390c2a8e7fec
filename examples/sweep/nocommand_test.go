package main

import (
	"strings"
	"testing"
)

// sweep without a command ends its usage with the error's line, exit 2,
// as qserve does: it printed the usage alone.
func TestNoCommand(t *testing.T) {
	code, out, errs := sweep(t, nil)
	last := errs[strings.LastIndex(strings.TrimSuffix(errs, "\n"), "\n")+1:]
	if code != 2 || out != "" || !strings.HasPrefix(errs, "usage: sweep") || !strings.HasPrefix(last, "sweep: no command") {
		t.Errorf("sweep: exit %d, stdout %q, last line of stderr %q; want 2 and \"sweep: no command …\"", code, out, last)
	}
}
