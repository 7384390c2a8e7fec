package convert

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A JSON log read to its end through gzip whose data is corrupt past the
// document (trailing garbage) fails with the gzip error, not as JSON with
// more after it ("more after the JSON object", "data after the list of
// jobs"), which hid the cause; plain JSON with more after it is said so.
func TestJSONEndReadError(t *testing.T) {
	for _, c := range []struct {
		file, more string
		conv       func(io.Reader) error
	}{
		{"sacct-23.11.json", "more after the JSON object", func(r io.Reader) error { _, err := SacctJSON(r, Options{}); return err }},
		{"snapshot/slurmrestd-v0.0.40.json", "more after the JSON object", func(r io.Reader) error { _, err := QueueSnapshot(r, Options{}); return err }},
		{"gpu-philly.json", "data after the list of jobs", func(r io.Reader) error { _, err := GPUTrace(r, Options{}); return err }},
	} {
		js, err := os.ReadFile(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		if err := c.conv(bytes.NewReader(js)); err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(js)
		zw.Close()
		err = c.conv(io.MultiReader(&z, strings.NewReader("junk\n")))
		if err == nil || !strings.Contains(err.Error(), "trailing garbage") || strings.Contains(err.Error(), c.more) {
			t.Errorf("%s gzip, then junk: %v; want the gzip error", c.file, err)
		}
		err = c.conv(io.MultiReader(bytes.NewReader(js), strings.NewReader("junk\n")))
		if err == nil || !strings.Contains(err.Error(), c.more) {
			t.Errorf("%s, then junk: %v; want %q", c.file, err, c.more)
		}
	}
}
