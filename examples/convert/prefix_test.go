package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// swf/convert's errors begin with "convert: ", the package's name, and the
// command put its own before the input's name: "convert: log: convert:
// sacct-json line 1: unexpected EOF". Each error says convert once, and
// still names the input and the line.
func TestErrorSaysConvertOnce(t *testing.T) {
	dir := t.TempDir()
	js := filepath.Join(dir, "cut.json")
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(js, []byte(`{"jobs":[{"x":1`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("JobID|Partition\n1|a|b|c\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"", []string{"-from", "sacct-json", js}, "convert: " + js + ": sacct-json line 1: unexpected EOF"},
		{`{"jobs":[{"x":1`, []string{"-from", "sacct-json", "-"}, "convert: standard input: sacct-json line 1: unexpected EOF"},
		{"\x1f\x8b\x08", []string{"-from", "sacct", "-"}, "convert: standard input: gzip data truncated"},
		{"", []string{"-from", "sacct", bad, bad, "-strict"}, "convert: " + bad + " " + bad + " (read as one log; lines count across the files): sacct line"},
		{"", []string{"-from", "scontrol", js, "-now", "1000-01-01T00:00:00Z"}, "convert: Now 1000-01-01"},
	} {
		code, _, stderr := runCmd(t, c.stdin, c.args...)
		if code == 0 || !strings.HasPrefix(stderr, c.want) || strings.Count(stderr, "convert: ") != 1 {
			t.Errorf("%q: exit %d, %q; want %q… with convert: once", c.args, code, stderr, c.want)
		}
	}
}
