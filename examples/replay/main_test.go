package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// TestSmall runs the program on two synthetic days with figures and checks
// that every block of the report is there and every figure was written.
func TestSmall(t *testing.T) {
	dir := t.TempDir()
	var out, errs bytes.Buffer
	if err := command(context.Background(), []string{"-days", "2", "-out", dir}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"synthetic: Lublin–Feitelson model, 128 nodes", "EASY++", "PERFECT++",
		"binomial method, full history", "bounds held", "VARQ", "request: 4 nodes", "carried out under EASY", "Done in"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	if errs.Len() > 0 {
		t.Errorf("stderr not empty without a terminal: %q", errs.String())
	}
	for _, f := range []string{"waits", "schedulers", "varq"} {
		for _, ext := range []string{".png", ".svg"} {
			if st, err := os.Stat(filepath.Join(dir, f+ext)); err != nil || st.Size() < 1000 {
				t.Errorf("%s%s: %v", f, ext, err)
			}
		}
	}
}

func TestBadInput(t *testing.T) {
	for _, args := range [][]string{{"-days", "0"}, {"-days", "0.01"}, {"-load", "-1"}, {"-machine", "-4"}, {"stray"}, {"-trace", "/nonexistent.swf"}} {
		var out, errs bytes.Buffer
		if err := command(context.Background(), args, &out, &errs); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

func TestCLI(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.swf")
	trace := clitest.WriteTrace(t, t.TempDir(), "small.swf", 200, 8)
	clitest.Run(t, clitest.Command{Run: run,
		JSON:      []string{"-days", "1", "-json"},
		FromStdin: []string{"-", "-json"}, StdinFile: trace,
		Missing: []string{missing}, File: missing, Machine: []string{}})
}

// TestOutDirFirst: an -out directory that cannot be made fails before the
// run, naming -out (it failed after the run with a bare "mkdir F: not a
// directory"): here before even the missing trace is looked for.
func TestOutDirFirst(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r := clitest.Exec(run, "", "-trace", filepath.Join(t.TempDir(), "missing.swf"), "-out", filepath.Join(file, "figures"))
	if r.Code != 1 || r.Stdout != "" || !strings.Contains(r.Stderr, "-out: mkdir") {
		t.Errorf("exit %d, stdout %d bytes, stderr %q; want 1 naming -out", r.Code, len(r.Stdout), r.Stderr)
	}
}
