package main

import (
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// A log with one malformed line fails without -lenient, the error saying
// that -lenient skips such lines, and is read with it, the line skipped
// and said in the text and in -json (clitest.Lenient).
func TestLenient(t *testing.T) {
	clitest.Lenient(t, clitest.LenientCase{Run: run, N: 60, Args: func(path string) []string { return []string{path} }, Text: []string{"malformed lines skipped  1", "skipped: swf: line 16, field 4 (run time)"}})
}
