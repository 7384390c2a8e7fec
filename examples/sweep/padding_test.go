package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// Zero padding after a gzip trace's last member is ignored and said by
// run, in its summary and in -json (and the shard's .meta.json), by trace,
// in simulate's and swfstat's words and key: sweep read through
// swf.ReadFile, which drops the count, and said nothing.
func TestGzipPaddingNoted(t *testing.T) {
	dir := t.TempDir()
	trace := clitest.Pad(t, clitest.WriteTrace(t, dir, "padded.swf.gz", 100, 8), 1000)
	spec := filepath.Join(dir, "pad.json")
	js := fmt.Sprintf(`{"name": "pad", "traces": [{"name": "padded", "file": %q}], "policies": ["EASY"]}`, trace)
	if err := os.WriteFile(spec, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	out := mustRun(t, "run", "-spec", spec, "-out", filepath.Join(dir, "text"))
	if !strings.Contains(out, "trace padded: 1000 zero bytes after the last gzip member ignored") {
		t.Errorf("summary without the padding:\n%s", out)
	}
	out = mustRun(t, "run", "-spec", spec, "-out", filepath.Join(dir, "json"), "-json")
	var side Sidecar
	if err := json.Unmarshal([]byte(out), &side); err != nil || side.TrailingZeros["padded"] != 1000 {
		t.Errorf("%v, %s; want trailing_zero_bytes {padded: 1000}", err, out)
	}
}
