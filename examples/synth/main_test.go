package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/examples/internal/cli/clitest"
	"github.com/batchq/batchq/internal/progress"
	"github.com/batchq/batchq/swf"
)

func TestRun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "s.swf")
	var stderr bytes.Buffer
	if err := generate([]string{"-jobs", "500", "-machine", "64", "-load", "0.8", "-estimates", "-out", out}, &bytes.Buffer{}, &stderr); err != nil {
		t.Fatal(err, stderr.String())
	}
	h, jobs, err := swf.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := h.MachineSize(); p != 64 || len(jobs) != 500 || !jobs[0].HasEstimate() {
		t.Fatalf("machine %d, %d jobs, first %+v", p, len(jobs), jobs[0])
	}
	if err := generate([]string{"-machine", "1"}, &bytes.Buffer{}, &stderr); err == nil {
		t.Error("machine 1 accepted")
	}
	_ = os.Remove(out)
}

func TestCLI(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no", "such", "dir", "s.swf")
	clitest.Run(t, clitest.Command{Run: run, NoArgs: true,
		JSON:    []string{"-jobs", "20", "-out", filepath.Join(dir, "s.swf"), "-json"},
		Missing: []string{"-jobs", "20", "-out", missing}, File: missing})
}

// TestProgress: -progress draws the bar on stderr and leaves the trace on
// stdout byte for byte as without it (synth had no bar: 10^6 jobs took
// 2.9 s in silence, and -jobs goes to 2^28).
func TestProgress(t *testing.T) {
	clitest.Progress(t, run, "-jobs", "3000")
	clitest.Progress(t, run, "-jobs", "300", "-estimates")
}

// TestNoBarOverTrace: with stderr a terminal the bar is on by default, but
// not when the trace goes to standard output and that is the terminal too
// (the bar cut the SWF lines); -progress still forces it. A character
// device stands for the terminal.
func TestNoBarOverTrace(t *testing.T) {
	tty, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer tty.Close()
	for _, c := range []struct {
		args   []string
		stdout io.Writer
		want   bool
	}{
		{nil, tty, false},
		{[]string{"-progress"}, tty, true},
		{nil, io.Discard, true},
		{[]string{"-out", "f.swf"}, tty, true},
	} {
		fs := cli.NewFlagSet("synth")
		bar := fs.Bool("progress", true, "") // stderr a terminal
		out := fs.String("out", "-", "")
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		if got := barOn(fs, bar, false, *out, c.stdout); got != c.want {
			t.Errorf("%q, stdout %T: bar %v, want %v", c.args, c.stdout, got, c.want)
		}
	}
}

// TestNoBarNoWrapper: without the bar the trace goes straight to its
// writer, with nothing counting lines on the way (every run paid for the
// count, bar or not: +0.1% of instructions on -jobs 100000 -out F).
func TestNoBarNoWrapper(t *testing.T) {
	var b bytes.Buffer
	pb := progress.New(io.Discard, false, 1)
	if w := barred(&b, pb, false, 10, false); w != io.Writer(&b) {
		t.Errorf("bar off: output %T, want the writer itself", w)
	}
	if w, ok := barred(&b, pb, true, 10, true).(*lineBar); !ok || w.stage != "write" {
		t.Errorf("bar on: output %T, want a *lineBar starting the write stage", w)
	}
}
