package cli

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// ReadLog reads as swf.ReadFile does and counts the zero padding after a
// gzip member, which swf.ReadFile drops; a parse error names the file.
func TestReadLog(t *testing.T) {
	dir := t.TempDir()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte("; MaxProcs: 8\n1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"))
	zw.Close()
	b.Write(make([]byte, 512))
	padded := filepath.Join(dir, "padded.swf.gz")
	if err := os.WriteFile(padded, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	h, jobs, z, err := ReadLog(padded)
	if err != nil || h.MaxProcs != 8 || len(jobs) != 1 || z != 512 {
		t.Errorf("ReadLog: %v, %d jobs, %d zero bytes; want 1 job and 512", err, len(jobs), z)
	}
	if PaddingNote(z) != "512 zero bytes after the last gzip member ignored" {
		t.Errorf("note %q", PaddingNote(z))
	}
	bad := filepath.Join(dir, "bad.swf")
	if err := os.WriteFile(bad, []byte("1 2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, _, err = ReadLog(bad)
	if pe := (*swf.ParseError)(nil); !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), bad+": swf: line 1") {
		t.Errorf("%v; want a ParseError naming the file", err)
	}
}
