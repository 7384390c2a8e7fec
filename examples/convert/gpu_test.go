package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGPU converts the hand-written Helios and Philly tables of
// swf/convert/testdata as the README's worked example does, checks the
// README's blocks against what the command prints today, and that the
// other converters send these tables to -from gpu.
func TestGPU(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "helios.swf")
	code, stdout, stderr := runCmd(t, "", "-from", "gpu", testdata+"gpu-helios.csv", "-tz", "Asia/Shanghai", "-o", out, "-ids", filepath.Join(dir, "ids.txt"))
	if code != exitOK || stdout != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	checkReadmeBlock(t, "helios", stderr)
	text, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(text), "\n") {
		if l != "" && !strings.HasPrefix(l, "; ") || strings.HasPrefix(l, "; Queue:") || strings.HasPrefix(l, "; UnixStartTime:") {
			lines = append(lines, l)
		}
	}
	checkReadmeBlock(t, "helios-swf", strings.Join(lines, "\n")+"\n")
	code, _, stderr = runCmd(t, "", "-from", "gpu", testdata+"gpu-philly.json", "-tz", "America/Los_Angeles", "-o", filepath.Join(dir, "philly.swf"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	checkReadmeBlock(t, "philly", stderr)
	for _, c := range []struct{ from, in string }{
		{"sacct", "gpu-acme-kalos.csv"}, {"alibaba", "gpu-helios.csv"}, {"sacct-json", "gpu-philly.json"},
	} {
		code, _, stderr := runCmd(t, "", "-from", c.from, testdata+c.in, "-o", filepath.Join(dir, "x.swf"))
		if code != exitError || !strings.HasSuffix(stderr, "; run with -from gpu\n") {
			t.Errorf("-from %s %s: exit %d, %q", c.from, c.in, code, stderr)
		}
	}
	if code, _, stderr := runCmd(t, "", "-from", "gpu", "-accounts", testdata+"gpu-helios.csv", "-o", out); code != exitUsage {
		t.Errorf("-accounts with -from gpu: exit %d, %q", code, stderr)
	}
}
