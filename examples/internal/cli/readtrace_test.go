package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A malformed line's error names the file; a missing file's is os's own,
// which names it once.
func TestReadTraceNamesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.swf")
	if err := os.WriteFile(path, []byte("1 2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadTrace(path); err == nil || !strings.HasPrefix(err.Error(), path+": swf: line 1") {
		t.Errorf("%v, want %s: swf: line 1 ...", err, path)
	}
	missing := path + ".no"
	if _, _, err := ReadTrace(missing); err == nil || strings.Count(err.Error(), missing) != 1 {
		t.Errorf("%v, want the path once", err)
	}
}
