package main

import (
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// A log with one malformed line fails without -lenient, the error saying
// that -lenient skips such lines, and is read with it, the line skipped
// and said on standard error (with the jobs left out) and, in -json,
// keyed beside the sections (clitest.Lenient). One machine, the least
// days: the quickest run.
func TestLenient(t *testing.T) {
	clitest.Lenient(t, clitest.LenientCase{Run: run, N: 1500, TextOnStderr: true,
		Text: []string{"coalloc: one-bad-line.swf: skipped 1 malformed lines (-lenient); first: swf: line 16, field 4 (run time)"},
		Args: func(path string) []string {
			return []string{"-trace", path, "-count", "1", "-days", "8", "-step", "60"}
		}})
}
