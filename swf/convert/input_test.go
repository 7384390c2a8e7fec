package convert

import (
	"bytes"
	"compress/gzip"
	"os"
	"slices"
	"testing"
)

// Zero bytes after the last gzip member (a tape's or dd's padding) are
// ignored, as gzip(1) ignores them, and the Report notes them as swfstat
// and simulate say them: "512 zero bytes after the last gzip member
// ignored". Without padding, or on a plain input, no note. (A JSON
// decoder may stop before the end and note nothing: sacct-json is left
// out.)
func TestGzipTrailingZerosNoted(t *testing.T) {
	const note = "512 zero bytes after the last gzip member ignored"
	for _, c := range fixtures {
		if c.format == "sacct-json" {
			continue
		}
		data, err := os.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write(data)
		zw.Close()
		for _, in := range []struct {
			data []byte
			want bool
		}{{append(bytes.Clone(gz.Bytes()), make([]byte, 512)...), true}, {gz.Bytes(), false}, {data, false}} {
			res, err := converters[c.format](bytes.NewReader(in.data), Options{})
			if err != nil {
				t.Fatalf("%s: %v", c.path, err)
			}
			if got := slices.Contains(res.Report.Notes, note); got != in.want {
				t.Errorf("%s (%d bytes): notes %q; want the note %v", c.path, len(in.data), res.Report.Notes, in.want)
			}
		}
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("kind,count,cores\ncpu,4,128\n"))
	zw.Close()
	if _, rep, err := Nodes(bytes.NewReader(append(gz.Bytes(), make([]byte, 512)...)), Options{}); err != nil || !slices.Contains(rep.Notes, note) {
		t.Errorf("Nodes: %v, notes %q", err, rep.Notes)
	}
}
