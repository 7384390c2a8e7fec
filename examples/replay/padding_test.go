package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// Zero padding after a gzip trace's last member is ignored and said, in
// the text and in -json, in simulate's and swfstat's words and key: replay
// read through swf.ReadFile, which drops the count, and said nothing.
func TestGzipPaddingNoted(t *testing.T) {
	path := clitest.Pad(t, clitest.WriteTrace(t, t.TempDir(), "padded.swf.gz", 60, 8), 1000)
	var out, errs bytes.Buffer
	if code := run(context.Background(), []string{"-trace", path}, strings.NewReader(""), &out, &errs); code != 0 ||
		!strings.Contains(out.String(), "(1000 zero bytes after the last gzip member ignored)") {
		t.Errorf("exit %d, %s\n%s; want the padding said", code, errs.String(), out.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"-trace", path, "-json"}, strings.NewReader(""), &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	var r struct {
		Zeros *int64 `json:"trailing_zero_bytes"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || r.Zeros == nil || *r.Zeros != 1000 {
		t.Errorf("%v, %s; want trailing_zero_bytes 1000", err, out.String())
	}
}
