package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// Zero padding after a gzip log's last member is ignored and said, on the
// log (stderr) beside the sane jobs and in -json, in simulate's and
// swfstat's words and key: estimates read through swf.ReadFile, which
// drops the count, and said nothing.
func TestGzipPaddingNoted(t *testing.T) {
	dir := t.TempDir()
	in := clitest.Pad(t, clitest.WriteTrace(t, dir, "padded.swf.gz", 100, 8), 1000)
	var out, errs strings.Builder
	if err := command(t.Context(), []string{"-trace", in, "-out", filepath.Join(dir, "out.swf"), "-json"}, &out, &errs); err != nil {
		t.Fatalf("%v: %s", err, errs.String())
	}
	if !strings.Contains(errs.String(), in+": 1000 zero bytes after the last gzip member ignored") {
		t.Errorf("log without the padding:\n%s", errs.String())
	}
	var r struct {
		Zeros *int64 `json:"trailing_zero_bytes"`
	}
	if err := json.Unmarshal([]byte(out.String()), &r); err != nil || r.Zeros == nil || *r.Zeros != 1000 {
		t.Errorf("%v, %s; want trailing_zero_bytes 1000", err, out.String())
	}
}

// -validate says a log's padding under its heading too: it read through
// loadTrace and dropped the count.
func TestValidateGzipPaddingNoted(t *testing.T) {
	in := clitest.Pad(t, clitest.WriteTrace(t, t.TempDir(), "padded.swf.gz", 200, 8), 1000)
	var out strings.Builder
	o := options{logs: in, seeds: 1, fSeeds: 1, workers: 1, noExtra: true}
	if err := validateAll(t.Context(), &out, nil, o, fakeEASY); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "(1000 zero bytes after the last gzip member ignored.)") {
		t.Errorf("report without the padding:\n%s", out.String())
	}
}
