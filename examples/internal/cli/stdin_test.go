package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStdinTrace(t *testing.T) {
	p, done, err := StdinTrace("some/file.swf", nil)
	if err != nil || p != "some/file.swf" {
		t.Fatalf("a path: %q, %v", p, err)
	}
	done()
	p, done, err = StdinTrace("-", strings.NewReader("; MaxProcs: 4\n1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(p) != "stdin" {
		t.Errorf("name %q, want stdin", p)
	}
	if b, err := os.ReadFile(p); err != nil || !strings.HasPrefix(string(b), "; MaxProcs: 4\n1 0") {
		t.Errorf("copy %q, %v", b, err)
	}
	done()
	if _, err := os.Stat(filepath.Dir(p)); !os.IsNotExist(err) {
		t.Errorf("done left %s: %v", filepath.Dir(p), err)
	}
}
