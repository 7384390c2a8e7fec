package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTraceDir: a missing directory and a file are named as the trace
// directory, with the flag to set; a directory passes.
func TestTraceDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := TraceDir("-dir", dir); err != nil {
		t.Errorf("a directory: %v", err)
	}
	for _, c := range []struct{ dir, want string }{
		{filepath.Join(dir, "nope"), "trace directory: stat " + filepath.Join(dir, "nope") + ": no such file"},
		{file, "trace directory " + file + ": not a directory (set -dir or $BATCHQ_TRACES)"},
	} {
		if err := TraceDir("-dir", c.dir); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.dir, err, c.want)
		}
	}
}
