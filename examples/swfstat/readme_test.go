package main

import (
	"bytes"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
)

// TestReadme runs the command on the embedded trace and compares its output
// with the README's region (BATCHQ_UPDATE_README=1 rewrites it).
func TestReadme(t *testing.T) {
	var out bytes.Buffer
	if err := stat(&out, nil, nil, false, false); err != nil {
		t.Fatal(err)
	}
	readme.Check(t, "README.md", "default", []byte("```\n$ go run ./examples/swfstat\n"+out.String()+"```\n"))
}
