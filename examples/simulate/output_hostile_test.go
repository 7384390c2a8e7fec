package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -out naming the trace (by any name) replaced the log with the simulated
// schedule; -out and -jobs-out naming one file wrote the CSV over the
// schedule. Each is a usage error and the log is left as it was.
func TestOutIsInput(t *testing.T) {
	dir := t.TempDir()
	p := writeTrace(t, dir, "small.swf", small)
	link := filepath.Join(dir, "link.swf")
	if err := os.Symlink(p, link); err != nil {
		t.Fatal(err)
	}
	same := filepath.Join(dir, "out.swf")
	for _, args := range [][]string{{"-out", p, p}, {"-jobs-out", link, p}, {p, "-out", link}, {"-out", same, "-jobs-out", dir + "/./out.swf", p}} {
		code, _, errs := runCmd(t, args...)
		if code != 2 || !strings.Contains(errs, "would overwrite it") && !strings.Contains(errs, "name the same file") {
			t.Errorf("%q: exit %d, %q; want 2 naming the input", args, code, errs)
		}
	}
	if b, err := os.ReadFile(p); err != nil || string(b) != small {
		t.Errorf("the trace changed: %v", err)
	}
}

// A write that fails removes a partial regular file only: a device named
// as the output (-out /dev/full removed /dev/full), or a symlink, stays.
func TestFailedOutputKeepsSpecialFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.swf")
	link := filepath.Join(dir, "link.swf")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	if err := writeFile(link, func(io.Writer) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("got %v", err)
	}
	if _, err := os.Lstat(link); err != nil {
		t.Errorf("the symlink named as the output was removed: %v", err)
	}
	plain := filepath.Join(dir, "plain.swf")
	writeFile(plain, func(io.Writer) error { return boom })
	if _, err := os.Lstat(plain); !os.IsNotExist(err) {
		t.Errorf("the partial regular file was kept: %v", err)
	}
}

// watchedReader is a trace on standard input that says whether it was
// read.
type watchedReader struct {
	r    io.Reader
	read bool
}

func (w *watchedReader) Read(p []byte) (int, error) { w.read = true; return w.r.Read(p) }

// An -out or -jobs-out in a directory that is not there, or that is a
// directory, is refused before the trace is read: it was found once
// the simulation was over ("open …: no such file or directory").
func TestOutputPathCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"-out", filepath.Join(dir, "missing", "s.swf")},
		{"-jobs-out", filepath.Join(dir, "missing", "j.csv")},
		{"-out", dir},
	} {
		in := &watchedReader{r: strings.NewReader(small)}
		var out, errb strings.Builder
		code := runContext(t.Context(), append(args, "-"), in, &out, &errb)
		if code != 1 || in.read || out.Len() != 0 || !strings.Contains(errb.String(), args[0]+" "+args[1]+": ") {
			t.Errorf("%q: exit %d, trace read %v, stdout %q, stderr %q; want 1 before reading, naming %s", args, code, in.read, out.String(), errb.String(), args[0])
		}
	}
}
