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

// An input named convert keeps its name: the second "convert: " the
// command cut was the file's, and the message named no input.
func TestInputNamedConvert(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "convert")
	if err := os.WriteFile(bad, []byte("JobID|Partition\n1|a|b|c\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, args := range [][]string{{"-from", "sacct", "-strict", "convert"}, {"-from", "sacct", "-strict", "-o", "out.swf", "convert", "convert"}} {
		code, _, stderr := runCmd(t, "", args...)
		if code == 0 || !strings.HasPrefix(stderr, "convert: convert") {
			t.Errorf("%q: exit %d, %q; want the input named", args, code, stderr)
		}
	}
	t.Chdir(t.TempDir())
	if err := os.Mkdir("convert", 0o755); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCmd(t, "", "-from", "sacct", "convert"); code == 0 || !strings.HasPrefix(stderr, "convert: convert: is a directory") {
		t.Errorf("exit %d, %q; want the directory named", code, stderr)
	}
}
