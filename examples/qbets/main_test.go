package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
)

func TestRunOnKTH(t *testing.T) {
	if testing.Short() {
		t.Skip("replays KTH four ways, twice (~10 s)")
	}
	p := tracetest.Path(t, tracetest.KTH)
	dir := t.TempDir()
	if err := os.Symlink(p, filepath.Join(dir, filepath.Base(p))); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := run(&b, io.Discard, dir, 1000); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"### plain (Table 4.1)", "### QBETS (Table 4.2)", "| KTH-SP2-1996-2.1-cln/-1 | 28476 |", "Queues where full-QBETS BM"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
