package tracetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFindPrefix(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"SDSC-SP2-1998.swf.gz", "SDSC-BLUE-2000.swf.gz", "KTH.swf", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if p, err := FindPrefix(dir, "sdsc-blue"); err != nil || filepath.Base(p) != "SDSC-BLUE-2000.swf.gz" {
		t.Errorf("sdsc-blue: %q, %v", p, err)
	}
	if _, err := FindPrefix(dir, "SDSC"); err == nil || !strings.Contains(err.Error(), "2 traces") {
		t.Errorf("ambiguous prefix: %v", err)
	}
	if _, err := FindPrefix(dir, "notes"); err == nil || !strings.Contains(err.Error(), "no trace") {
		t.Errorf("non-trace file matched: %v", err)
	}
}

func TestDirOf(t *testing.T) {
	dir := DirOf(t, KTH)
	p, err := FindPrefix(dir, "KTH")
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := Find(KTH); p != filepath.Join(dir, KTH) || want == "" {
		t.Errorf("DirOf: %q, want the link %s to %s", p, filepath.Join(dir, KTH), want)
	}
	if _, err := os.Stat(p); err != nil {
		t.Errorf("link does not resolve: %v", err)
	}
}

func TestShortName(t *testing.T) {
	for in, want := range map[string]string{
		"/x/SDSC-BLUE-2000-4.2-cln.swf.gz": "SDSC-BLUE",
		"CTC-SP2-1996-3.1-cln.swf.gz":      "CTC-SP2",
		"SDSC-SP2-1998-4.2-cln":            "SDSC-SP2",
		"lublin_256.swf":                   "lublin_256",
		"nodash":                           "nodash",
	} {
		if got := ShortName(in); got != want {
			t.Errorf("ShortName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestDirNestedModule checks that a working directory inside the examples
// module (its own go.mod, nested in the repository) finds the traces beside
// the repository root, not beside the examples directory.
func TestDirNestedModule(t *testing.T) {
	t.Setenv("BATCHQ_TRACES", "")
	root := t.TempDir()
	ex := filepath.Join(root, "repo", "examples", "replay")
	if err := os.MkdirAll(ex, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(dir, mod string) {
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+mod+"\n\ngo 1.26\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "repo"), "github.com/batchq/batchq")
	write(filepath.Join(root, "repo", "examples"), "github.com/batchq/batchq/examples")
	t.Chdir(ex)
	d, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, "repo", "..", "shared", "traces"); d != want {
		t.Errorf("Dir() = %q, want %q", d, want)
	}
}
