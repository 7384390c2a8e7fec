package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An empty file says it has no job lines: it said "swf: header has
// neither MaxProcs nor MaxNodes", true of any file without a header.
func TestEmptyFileNoJobLines(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "empty.swf")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	code := run(context.Background(), []string{path}, strings.NewReader(""), &out, &errs)
	if code != 1 || !strings.Contains(errs.String(), "empty.swf: no job lines") {
		t.Errorf("exit %d, %q; want 1 and no job lines", code, errs.String())
	}
}
