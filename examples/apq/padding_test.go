package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// Zero padding after a gzip log's last member is ignored and said in the
// report (so in -json's text too), in simulate's and swfstat's words: apq
// read through swf.ReadFile, which drops the count, and said nothing.
func TestGzipPaddingNoted(t *testing.T) {
	dir := t.TempDir()
	clitest.Pad(t, clitest.WriteTrace(t, dir, "SDSC-SP2-1998-4.2-cln.swf.gz", 300, 16), 1000)
	for _, js := range []bool{false, true} {
		args := []string{"-traces", dir, "-tables", "VI", "-quick"}
		if js {
			args = append(args, "-json")
		}
		var out, errs bytes.Buffer
		if code := run(t.Context(), args, strings.NewReader(""), &out, &errs); code != 0 ||
			!strings.Contains(out.String(), "trace SDSC-SP2-1998-4.2-cln.swf.gz: 1000 zero bytes after the last gzip member ignored") {
			t.Errorf("-json %v: exit %d, %s\n%s; want the padding said", js, code, errs.String(), out.String())
		}
	}
}
