package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// Zero padding after a gzip log's last member is ignored and said, in the
// text and in -json, in simulate's and swfstat's words and key: forecast
// read through swf.ReadFile, which drops the count, and said nothing.
func TestGzipPaddingNoted(t *testing.T) {
	path := clitest.Pad(t, clitest.WriteTrace(t, t.TempDir(), "padded.swf.gz", 200, 8), 1000)
	code, out, errs := runCmd(t, "-predictors", "naive", path)
	if code != 0 || !strings.Contains(out, "1000 zero bytes after the last gzip member ignored") {
		t.Errorf("exit %d, %s\n%s; want the padding said", code, errs, out)
	}
	code, out, errs = runCmd(t, "-predictors", "naive", "-json", path)
	var r struct {
		Zeros *int64 `json:"trailing_zero_bytes"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &r); code != 0 || err != nil || r.Zeros == nil || *r.Zeros != 1000 {
		t.Errorf("exit %d, %v, %s\n%s; want trailing_zero_bytes 1000", code, err, errs, out)
	}
}
