package cli

import (
	"errors"
	"fmt"
	"io"
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
	if filepath.Base(p) != "standard input" {
		t.Errorf("name %q, want standard input", p)
	}
	if b, err := os.ReadFile(p); err != nil || !strings.HasPrefix(string(b), "; MaxProcs: 4\n1 0") {
		t.Errorf("copy %q, %v", b, err)
	}
	done()
	if _, err := os.Stat(filepath.Dir(p)); !os.IsNotExist(err) {
		t.Errorf("done left %s: %v", filepath.Dir(p), err)
	}
}

// What a command writes about the file made of standard input names
// standard input, not the temporary path; a file's name is left alone.
func TestStdinStderr(t *testing.T) {
	p, done, err := StdinTrace("-", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	var b strings.Builder
	fmt.Fprintf(StdinStderr(&b, "-", p), "cmd: %s: line 1: bad\n", p)
	fmt.Fprintf(StdinStderr(&b, "f.swf", "f.swf"), "cmd: %s: bad\n", "f.swf")
	if got, want := b.String(), "cmd: standard input: line 1: bad\ncmd: f.swf: bad\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// An error about the file made of standard input names standard input
// and still unwraps to the error; a file's error is left alone.
func TestStdinError(t *testing.T) {
	p, done, err := StdinTrace("-", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	_, err = os.Open(p + "/nope")
	got := StdinError(err, "-", p)
	if strings.Contains(got.Error(), p) || !strings.Contains(got.Error(), "standard input/nope") || !errors.Is(got, err) {
		t.Errorf("got %v", got)
	}
	if got := StdinError(err, "file.swf", p); got != err {
		t.Errorf("a file's error changed: %v", got)
	}
}

// The copy of standard input is bounded: cat /dev/zero | simulate - filled
// the temporary directory's disk. The bound's bytes are copied, one more
// is an error saying to give the trace by its path, and the temporary
// directory is removed.
func TestStdinTraceBounded(t *testing.T) {
	p, done, err := stdinTrace("-", strings.NewReader(strings.Repeat("x", 100)), 100)
	if err != nil {
		t.Fatalf("100 bytes, bound 100: %v", err)
	}
	if fi, err := os.Stat(p); err != nil || fi.Size() != 100 {
		t.Errorf("the copy: %v, %v", fi, err)
	}
	done()
	before, _ := filepath.Glob(filepath.Join(os.TempDir(), "batchq-stdin-*"))
	_, _, err = stdinTrace("-", strings.NewReader(strings.Repeat("x", 101)), 100)
	if err == nil || !strings.Contains(err.Error(), "standard input: more than 100 bytes: give the trace by its path") {
		t.Errorf("101 bytes, bound 100: %v", err)
	}
	if after, _ := filepath.Glob(filepath.Join(os.TempDir(), "batchq-stdin-*")); len(after) > len(before) {
		t.Errorf("the temporary directory was left: %q", after)
	}
	if got := sizeWords(maxStdin); got != "16 GiB" {
		t.Errorf("maxStdin says %q", got)
	}
}

// Binary data on standard input is refused before it is copied: cat
// /dev/zero | forecast - wrote the bound's bytes of zeros to disk before
// the log's first line refused them. Text and a gzip stream are copied.
func TestStdinTraceBinary(t *testing.T) {
	_, _, err := stdinTrace("-", io.LimitReader(zeroReader{}, 1<<20), 100)
	if err == nil || !strings.Contains(err.Error(), "standard input: binary data, not a text log") {
		t.Errorf("zeros: %v", err)
	}
	for _, in := range []string{"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x00", "; MaxProcs: 4\n1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n", ""} {
		p, done, err := stdinTrace("-", strings.NewReader(in), 100)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if b, err := os.ReadFile(p); err != nil || string(b) != in {
			t.Errorf("%q: copied %q, %v", in, b, err)
		}
		done()
	}
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
