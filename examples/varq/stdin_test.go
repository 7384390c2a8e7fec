package main

import (
	"strings"
	"testing"
)

// An error about a log read from standard input names standard input,
// not the temporary file it was copied to (/tmp/batchq-stdin-…/stdin).
func TestStdinNamed(t *testing.T) {
	var out, errs strings.Builder
	err := commandIn([]string{"-trace", "-"}, strings.NewReader("; MaxProcs: 4\n"), &out, &errs)
	if err == nil || strings.Contains(err.Error(), "batchq-stdin") || !strings.Contains(err.Error(), "standard input") {
		t.Errorf("got %v; want an error naming standard input", err)
	}
}
