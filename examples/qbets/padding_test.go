package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
	"github.com/batchq/batchq/qbets"
)

// Zero padding after a gzip log's last member is ignored and said, in the
// text and in -json, in simulate's and swfstat's words and key: qbets read
// through swf.ReadFile, which drops the count, and said nothing.
func TestGzipPaddingNoted(t *testing.T) {
	path := clitest.Pad(t, clitest.WriteTrace(t, t.TempDir(), "padded.swf.gz", 100, 8), 1000)
	var out, errs strings.Builder
	if code := command([]string{path}, &out, &errs); code != 0 || !strings.Contains(out.String(), "(1000 zero bytes after the last gzip member ignored)") {
		t.Errorf("exit %d, %s\n%s; want the padding said", code, errs.String(), out.String())
	}
	out.Reset()
	if code := command([]string{path, "-json"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var r struct {
			Zeros *int64 `json:"trailing_zero_bytes"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil || r.Zeros == nil || *r.Zeros != 1000 {
			t.Errorf("%v, %s; want trailing_zero_bytes 1000", err, l)
		}
	}
}

// The tables (-traces) say a log's padding on their log, as they say its
// jobs left out.
func TestTablesGzipPaddingNoted(t *testing.T) {
	dir := t.TempDir()
	clitest.Pad(t, clitest.WriteTrace(t, dir, "padded.swf.gz", 400, 8), 1000)
	var out, log strings.Builder
	if err := tables(&out, &log, false, dir, 10, qbets.ClusterFixedProcs); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if !strings.Contains(log.String(), "padded.swf.gz: 1000 zero bytes after the last gzip member ignored") {
		t.Errorf("log without the padding:\n%s", log.String())
	}
}
