package main

import (
	"path/filepath"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// A log with one malformed line fails without -lenient, the error saying
// that -lenient skips such lines, and is read with it, the line skipped
// and said on standard error and in -json (clitest.Lenient).
func TestLenient(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.swf")
	clitest.Lenient(t, clitest.LenientCase{Run: run, N: 60, TextOnStderr: true,
		Args: func(path string) []string { return []string{"-trace", path, "-model", "f", "-out", out} }})
}
