package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
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

// -o or -ids naming an input replaced the log with its own conversion (or
// with the id list), exit 0; -o and -ids naming one file wrote both into
// it. Each is a usage error and the log is left as it was.
func TestOutputIsInput(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "pbs.log")
	before, err := os.ReadFile(testdata + "pbs-torque.log")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(log, before, 0o644)
	other := filepath.Join(dir, "out.swf")
	link := filepath.Join(dir, "link.swf")
	os.WriteFile(other, nil, 0o644)
	if err := os.Symlink(other, link); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"-o", log},
		{"-ids", log, "-o", other},
		{"-ids", other, "-o", other},
		{"-ids", dir + "/./out.swf", "-o", other}, // the same file, not the same string
		{"-ids", link, "-o", other},               // a link to the output
	} {
		var out, errs strings.Builder
		code := command(t.Context(), append([]string{"-from", "pbs", "-tz", "UTC", log}, args...), strings.NewReader(""), &out, &errs)
		if code != exitUsage {
			t.Errorf("%q: exit %d, %q; want %d", args, code, errs.String(), exitUsage)
		}
	}
	if after, _ := os.ReadFile(log); !bytes.Equal(after, before) {
		t.Error("the log changed")
	}
}

// TestProgressOffWhenTraceOnTerminal: with stderr a terminal the bar is on
// by default, but not when the trace goes to standard output and that is
// the terminal too (the bar cut the SWF lines on the screen); -progress
// still forces it. A character device stands for the terminal.
func TestProgressOffWhenTraceOnTerminal(t *testing.T) {
	tty, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer tty.Close()
	in := testdata + "pbs-torque.log"
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"-from", "pbs", in}, false},
		{[]string{"-from", "pbs", in, "-progress"}, true},
		{[]string{"-from", "pbs", in, "-o", filepath.Join(t.TempDir(), "o.swf")}, true},
	} {
		o, err := parse(c.args, tty, tty)
		if err != nil {
			t.Fatal(err)
		}
		if o.progress != c.want {
			t.Errorf("%q: progress %v, want %v", c.args, o.progress, c.want)
		}
	}
}
