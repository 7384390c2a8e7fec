package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A recording given to -replay may have been gunzipped to be read (it is
// JSON lines), cut short by a copy, or be empty: the plain one replays as
// the gzip one does, and the others fail naming what is wrong (truncated
// gzip, no polls), not "gzip: invalid header", a JSON error at a line
// the truncation made, or a bare "EOF".
func TestRecordingFiles(t *testing.T) {
	gz, err := os.ReadFile(filepath.Join("testdata", "live.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	want, err := readRecording(filepath.Join("testdata", "live.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := readRecording(write("live.jsonl", plain))
	if err != nil {
		t.Fatalf("plain recording: %v", err)
	}
	if len(got.polls) != len(want.polls) {
		t.Errorf("plain recording: %d polls, want %d", len(got.polls), len(want.polls))
	}
	for _, c := range []struct{ name, want string }{
		{"cut.jsonl.gz", "truncated"},
		{"empty.jsonl.gz", "no polls"},
	} {
		var b []byte
		if c.name == "cut.jsonl.gz" {
			b = gz[:len(gz)/2]
		}
		_, err := readRecording(write(c.name, b))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}
