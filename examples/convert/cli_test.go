package main

import (
	"path/filepath"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// The exit statuses under the names the tests used before they moved to
// package cli.
const (
	exitOK    = cli.ExitOK
	exitError = cli.ExitError
	exitUsage = cli.ExitUsage
)

func TestCLI(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.txt")
	clitest.Run(t, clitest.Command{Run: command,
		JSON:    []string{"-from", "pbs", testdata + "pbs-torque.log", "-json", "-o", filepath.Join(dir, "out.swf"), "-tz", "UTC"},
		Missing: []string{"-from", "pbs", missing, "-o", filepath.Join(dir, "out.swf")}, File: missing})
}
