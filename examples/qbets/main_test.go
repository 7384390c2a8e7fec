package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
)

func TestRunOnKTH(t *testing.T) {
	p := tracetest.Path(t, tracetest.KTH)
	dir := t.TempDir()
	if err := os.Symlink(p, filepath.Join(dir, filepath.Base(p))); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := run(&b, dir, 1000); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "KTH") {
		t.Fatalf("no KTH row:\n%s", b.String())
	}
}
