package main

import (
	"bytes"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
)

// TestReadme regenerates the README's two tables (about 2.6·10^6 synthetic
// jobs) and compares them with its generated regions; BATCHQ_UPDATE_README=1
// rewrites them.
func TestReadme(t *testing.T) {
	if testing.Short() {
		t.Skip("draws 2.6 million synthetic jobs")
	}
	var stats bytes.Buffer
	if err := writeModelStats(&stats); err != nil {
		t.Fatal(err)
	}
	readme.Check(t, "README.md", "model-stats", stats.Bytes())
	_, anchor, err := swf.ReadFile(tracetest.Path(t, tracetest.Lublin))
	if err != nil {
		t.Fatal(err)
	}
	var a bytes.Buffer
	if err := writeAnchor(&a, anchor); err != nil {
		t.Fatal(err)
	}
	readme.Check(t, "README.md", "anchor", a.Bytes())
}
