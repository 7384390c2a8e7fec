package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// Zero padding after a gzip log's last member is ignored and said under
// the log's heading, so in -json's section text too, in simulate's and
// swfstat's words: varq read through swf.ReadFile, which drops the count,
// and said nothing.
func TestGzipPaddingNoted(t *testing.T) {
	path := clitest.Pad(t, clitest.WriteTrace(t, t.TempDir(), "padded.swf.gz", 60, 16), 1000)
	for _, js := range []bool{false, true} {
		args := []string{"-trace", path, "-fractions", "0.1", "-targets", "0.5"}
		if js {
			args = append(args, "-json")
		}
		var out, errs bytes.Buffer
		if code := run(t.Context(), args, strings.NewReader(""), &out, &errs); code != 0 ||
			!strings.Contains(out.String(), "1000 zero bytes after the last gzip member ignored") {
			t.Errorf("-json %v: exit %d, %s\n%s; want the padding said", js, code, errs.String(), out.String())
		}
	}
}
