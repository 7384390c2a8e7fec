package main

import (
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
)

// TestReadme regenerates every table of README.md (the four logs, per-event
// passes, the EASY_PRED experiment) and compares it with the README's
// generated regions; BATCHQ_UPDATE_README=1 rewrites them.
func TestReadme(t *testing.T) {
	r := readmeReport(t)
	for _, s := range r.sections() {
		readme.Check(t, "README.md", s.name, s.text())
	}
}
