package main

import (
	"bytes"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// Zero padding after a gzip log's last member is ignored and said on the
// warning writer, beside a machine's jobs left out, in simulate's and
// swfstat's words: coalloc read through swf.ReadFile, which drops the
// count, and said nothing.
func TestGzipPaddingNoted(t *testing.T) {
	dir := t.TempDir()
	a := clitest.Pad(t, clitest.WriteTrace(t, dir, "a.swf.gz", 1500, 16), 1000)
	b := clitest.WriteTrace(t, dir, "b.swf", 1500, 16)
	var out, warn bytes.Buffer
	opt := options{paths: []string{a, b}, days: 9, count: 2, step: 30, trials: table62[:1], warn: &warn}
	if err := reproduce(&out, opt); err != nil {
		t.Fatal(err)
	}
	if want := "coalloc: a.swf.gz: 1000 zero bytes after the last gzip member ignored\n"; warn.String() != want {
		t.Errorf("warnings %q; want %q", warn.String(), want)
	}
}
