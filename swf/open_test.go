package swf

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Open reads gzip by content (whatever the name) and plain text alike, and
// closing before the end stops the decompressing goroutine cleanly.
func TestOpenDetectsGzip(t *testing.T) {
	dir := t.TempDir()
	text := "; MaxProcs: 8\n" + strings.Repeat(goodLine+"\n", 50000)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(text))
	zw.Close()
	files := map[string][]byte{"plain.gz": []byte(text), "compressed.swf": gz.Bytes()}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		h, jobs, err := ReadFile(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(jobs) != 50000 || h.MaxProcs != 8 {
			t.Errorf("%s: %d jobs, MaxProcs %d", name, len(jobs), h.MaxProcs)
		}
		f, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Read(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Open(filepath.Join(dir, "missing")); err == nil {
		t.Error("Open of a missing file succeeded")
	}
}

func TestOpenCorruptGzip(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bad.gz")
	os.WriteFile(p, []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3}, 0o644)
	if _, _, err := ReadFile(p); err == nil {
		t.Error("corrupt gzip read without error")
	}
}
