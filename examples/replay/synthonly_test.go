package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The synthetic workload's flags beside a trace are a usage error naming
// the flag: replay LOG -days 3 (or -days NaN, -load 1e20, -seed 2) ran the
// whole log and exited 0, the flag silently ignored.
func TestSyntheticFlagsWithTrace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.swf")
	if err := os.WriteFile(path, []byte("; MaxProcs: 8\n1 0 0 60 1 -1 -1 1 60 -1 1 1 1 1 1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{path, "-days", "3"}, "-days"},
		{[]string{"-days", "NaN", path}, "-days"},
		{[]string{"-trace", path, "-load", "1e20"}, "-load"},
		{[]string{path, "-seed=2"}, "-seed"},
	} {
		var out, errs bytes.Buffer
		code := run(context.Background(), c.args, strings.NewReader(""), &out, &errs)
		if code != 2 || !strings.Contains(errs.String(), c.flag+" shapes the synthetic workload") || out.Len() != 0 {
			t.Errorf("%q: exit %d, stdout %d bytes, stderr %q; want 2 naming %s", c.args, code, out.Len(), errs.String(), c.flag)
		}
	}
}
