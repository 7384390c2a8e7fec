package main

import (
	"io"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
)

func TestRunOnKTH(t *testing.T) {
	if testing.Short() {
		t.Skip("replays KTH four ways, twice (~10 s)")
	}
	dir := tracetest.DirOf(t, tracetest.KTH)
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
