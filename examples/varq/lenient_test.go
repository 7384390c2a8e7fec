package main

import (
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// A log with one malformed line fails without -lenient, the error saying
// that -lenient skips such lines, and is read with it, the line skipped
// and said under the log's heading and, in -json, in its section's text
// and keyed beside the sections (clitest.Lenient).
func TestLenient(t *testing.T) {
	clitest.Lenient(t, clitest.LenientCase{Run: run, N: 60, Args: func(path string) []string {
		return []string{"-trace", path, "-fractions", "0.1", "-targets", "0.5"}
	}})
}

// A -lenient log left with no sane job says the lines skipped too.
func TestLenientNothingLeft(t *testing.T) {
	clitest.NothingLeft(t, clitest.LenientCase{Run: run, Args: func(path string) []string {
		return []string{"-trace", path, "-fractions", "0.1", "-targets", "0.5"}
	}}, "no sane job to simulate (1 jobs read, 1 not sane")
}
