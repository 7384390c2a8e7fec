package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A text file a command reads whole is bounded: binary data is refused at
// its first bytes, a longer file than the limit is an error, and a file
// within it is read as it is.
func TestReadText(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if _, err := ReadText(write("zeros", make([]byte, 1<<16)), "spec", 1<<20); err == nil || !strings.Contains(err.Error(), "binary data, not a spec") {
		t.Errorf("zeros: %v", err)
	}
	if _, err := ReadText(write("long", []byte(strings.Repeat("x", 101))), "spec", 100); err == nil || !strings.Contains(err.Error(), "more than 100 bytes, which no spec is") {
		t.Errorf("101 bytes, limit 100: %v", err)
	}
	if b, err := ReadText(write("ok", []byte(strings.Repeat("x", 100))), "spec", 100); err != nil || len(b) != 100 {
		t.Errorf("100 bytes, limit 100: %d, %v", len(b), err)
	}
	if _, err := ReadText(dir, "spec", 100); err == nil {
		t.Errorf("a directory: no error")
	}
}
