package main

import (
	"bytes"
	"strings"
	"testing"
)

// A -logs name that is not one of the four logs is a usage error before
// any log is read: -logs FOO exited 1, -logs SDSC,FOO ran SDSC alone
// without a word.
func TestUnknownLogIsUsageError(t *testing.T) {
	for _, v := range []string{"FOO", "SDSC,FOO", ","} {
		var out, errs bytes.Buffer
		code := run(t.Context(), []string{"-logs", v, "-dir", t.TempDir()}, strings.NewReader(""), &out, &errs)
		if code != 2 || !strings.Contains(errs.String(), "unknown log") {
			t.Errorf("-logs %q: exit %d, %q; want 2, unknown log", v, code, errs.String())
		}
	}
	if err := checkLogs("sdsc,KTH"); err != nil {
		t.Errorf("sdsc,KTH: %v", err)
	}
}
