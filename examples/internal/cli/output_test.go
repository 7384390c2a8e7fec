package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A failed write's output is removed only when it is a regular file: a
// device node named as the output was removed.
func TestRemovePartial(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "out.swf")
	if err := os.WriteFile(reg, []byte("partial"), 0o644); err != nil {
		t.Fatal(err)
	}
	RemovePartial(reg)
	if _, err := os.Stat(reg); !os.IsNotExist(err) {
		t.Errorf("regular file kept: %v", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no mkfifo:", err)
	}
	RemovePartial(fifo)
	if _, err := os.Lstat(fifo); err != nil {
		t.Errorf("a pipe named as the output was removed: %v", err)
	}
}

// An output that is an input, by another name, is refused; one that does
// not exist, or is another file, is not.
func TestNotInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "log.swf")
	if err := os.WriteFile(in, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.swf")
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.swf")
	os.WriteFile(other, []byte("y"), 0o644)
	if err := NotInput("-out", link, "-", in); err == nil || !strings.Contains(err.Error(), "overwrite") {
		t.Errorf("output = input: %v", err)
	}
	for _, out := range []string{filepath.Join(dir, "new.swf"), other} {
		if err := NotInput("-out", out, in); err != nil {
			t.Errorf("%s: %v", out, err)
		}
	}
	// A device read and written (one terminal as /dev/stdin and
	// /dev/stdout) is not truncated by creating it: no refusal.
	if err := NotInput("-o", os.DevNull, os.DevNull); err != nil {
		t.Errorf("%s as input and output: %v", os.DevNull, err)
	}
}

// Two outputs naming one file, by any name, are refused; two files in one
// directory with similar names are not, nor is an absent output.
func TestDistinctOutputs(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "out.swf")
	os.WriteFile(f, nil, 0o644)
	link := filepath.Join(dir, "link.swf")
	if err := os.Symlink(f, link); err != nil {
		t.Fatal(err)
	}
	for _, b := range []string{f, dir + "/./out.swf", link, filepath.Join(dir, "new.swf/..", "new.swf")} {
		a := f
		if strings.Contains(b, "new.swf") {
			a = filepath.Join(dir, "new.swf") // not created: by its name only
		}
		if err := DistinctOutputs("-o", a, "-ids", b); err == nil || !strings.Contains(err.Error(), "name the same file") {
			t.Errorf("%s and %s: %v", a, b, err)
		}
	}
	for _, b := range []string{"", filepath.Join(dir, "out.swf.ids"), filepath.Join(dir, "out.sw")} {
		if err := DistinctOutputs("-o", f, "-ids", b); err != nil {
			t.Errorf("%s: %v", b, err)
		}
	}
}

func TestOutputDir(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := OutputDir("-plot", filepath.Join(file, "x")); err == nil || !strings.HasPrefix(err.Error(), "-plot: ") {
		t.Errorf("under a file: %v, want a -plot error", err)
	}
	d := filepath.Join(t.TempDir(), "a", "b")
	if err := OutputDir("-plot", d); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
		t.Errorf("%s not made: %v", d, err)
	}
	if err := OutputDir("-plot", ""); err != nil {
		t.Errorf("no directory: %v", err)
	}
}

// OutputFile refuses, before a run, an output file in a directory that
// is not there or under a file, and one that is a directory; it creates
// nothing, and takes "", "-" and a new file in a directory there.
func TestOutputFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "missing", "out.swf"), "-out " + filepath.Join(dir, "missing", "out.swf") + ": its directory: "},
		{filepath.Join(file, "out.swf"), "is not a directory"},
		{dir, "is a directory, want a file"},
	} {
		if err := OutputFile("-out", c.path); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.path, err, c.want)
		}
	}
	for _, p := range []string{"", "-", file, filepath.Join(dir, "new.swf")} {
		if err := OutputFile("-out", p); err != nil {
			t.Errorf("%q: %v", p, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "new.swf")); !os.IsNotExist(err) {
		t.Errorf("new.swf made: %v", err)
	}
}
