package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/batchq/batchq/swf"
)

func TestRun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "s.swf")
	var stderr bytes.Buffer
	if err := run([]string{"-jobs", "500", "-machine", "64", "-load", "0.8", "-estimates", "-out", out}, &bytes.Buffer{}, &stderr); err != nil {
		t.Fatal(err, stderr.String())
	}
	h, jobs, err := swf.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := h.MachineSize(); p != 64 || len(jobs) != 500 || !jobs[0].HasEstimate() {
		t.Fatalf("machine %d, %d jobs, first %+v", p, len(jobs), jobs[0])
	}
	if err := run([]string{"-machine", "1"}, &bytes.Buffer{}, &stderr); err == nil {
		t.Error("machine 1 accepted")
	}
	_ = os.Remove(out)
}
