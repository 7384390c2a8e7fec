package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
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
