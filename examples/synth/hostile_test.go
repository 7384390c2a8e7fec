package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/estmodel"
	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/swf/synth"
)

// Every bad flag value is a usage error (exit 2) naming the flag or the
// value, as the other commands' are (they exited 1), and nothing is
// written: -jobs 0 -out FILE left an empty FILE behind.
func TestBadFlagValuesAreUsageErrors(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"-jobs", "0"}, {"-jobs", "-1"}, {"-jobs", "300000000"},
		{"-machine", "-5"}, {"-machine", "1"}, {"-load", "-1"}, {"-load", "NaN"},
		{"-start-hour", "25"}, {"-start-hour", "-1"},
		// with -estimates every job is held at once (~200 bytes each):
		// 2^28 of them were ~50 GB; at most 2^24
		{"-jobs", "16777217", "-estimates"},
		// the modal model needs 200 jobs: fewer failed after -out was
		// made (exit 1, an empty file left)
		{"-jobs", "199", "-estimates"},
	} {
		out := filepath.Join(dir, "s.swf")
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append(args, "-out", out), strings.NewReader(""), &stdout, &stderr)
		// The flag is named, not synth.Config's field ("TargetLoad -1
		// and ArrivalShapeScale 0 must be …", "machine size -5").
		if code != cli.ExitUsage || !strings.Contains(stderr.String(), args[0]+" "+args[1]) || strings.Contains(stderr.String(), "TargetLoad") {
			t.Errorf("%q: exit %d, %q; want 2 naming %s %s", args, code, stderr.String(), args[0], args[1])
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%q: wrote %s", args, out)
			os.Remove(out)
		}
	}
}

// -machine 0 is synth.Config's default, 128 nodes: -json says 128, and
// -h and the README say so (it took 0 for 128 without a word there).
func TestMachineZeroReported(t *testing.T) {
	var help, herr bytes.Buffer
	run(context.Background(), []string{"-h"}, strings.NewReader(""), &help, &herr)
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(help.String()+herr.String(), "(0: 128") || !strings.Contains(string(readme), "`-machine` (nodes; 0 is 128") {
		t.Errorf("-h or the README does not say what -machine 0 means:\n%s%s", help.String(), herr.String())
	}
	var stdout, stderr bytes.Buffer
	out := filepath.Join(t.TempDir(), "s.swf")
	if code := run(context.Background(), []string{"-machine", "0", "-jobs", "20", "-json", "-out", out}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), `"machine": 128`) {
		t.Errorf("-json: %s", stdout.String())
	}
}

// TestMinEstimated: minEstimated is the generator's own bound: it refuses
// one job fewer and takes that many.
func TestMinEstimated(t *testing.T) {
	for _, n := range []int{minEstimated - 1, minEstimated} {
		g, err := synth.New(synth.Config{Estimator: estmodel.Modal{}, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Jobs(n); (err == nil) != (n >= minEstimated) {
			t.Errorf("Jobs(%d) with an estimator: %v", n, err)
		}
	}
}

// An empty -out is a usage error naming it: it was exit 1, "open : no
// such file or directory".
func TestEmptyOutUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"-jobs", "5", "-out", ""}, strings.NewReader(""), &stdout, &stderr)
	if code != cli.ExitUsage || !strings.Contains(stderr.String(), `-out ""`) || stdout.Len() != 0 {
		t.Errorf("exit %d, %q; want 2 naming -out", code, stderr.String())
	}
}

// -out naming a directory, or a file in a missing one, is said with the
// flag, as the other commands say it: it was "open DIR: is a directory".
func TestOutNamedInErrors(t *testing.T) {
	dir := t.TempDir()
	for _, out := range []string{dir, filepath.Join(dir, "missing", "x.swf")} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"-jobs", "10", "-out", out}, strings.NewReader(""), &stdout, &stderr)
		if code != 1 || !strings.Contains(stderr.String(), "synth: -out "+out+": ") {
			t.Errorf("-out %s: exit %d, %q; want 1 naming -out", out, code, stderr.String())
		}
	}
}
