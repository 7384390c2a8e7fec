package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
)

// Every input is checked for UTF-16, not only the stream's start that
// swf/convert sniffs: a second file saved as UTF-16 (an editor's, Windows
// PowerShell's >) was read as malformed lines, its records skipped with
// exit 0, or failed as "header lacks JobID"; it is refused naming the file,
// as a first one is.
func TestUTF16EachInput(t *testing.T) {
	good := testdata + "pbs-torque.log"
	text, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("\xff\xfe")
	for _, u := range utf16.Encode([]rune(string(text))) {
		b.WriteByte(byte(u))
		b.WriteByte(byte(u >> 8))
	}
	wide := filepath.Join(t.TempDir(), "wide.log")
	if err := os.WriteFile(wide, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{good, wide}, {wide, good}, {wide}, {good, good, wide}} {
		code, _, stderr := runCmd(t, "", append([]string{"-from", "pbs", "-o", os.DevNull}, args...)...)
		if code != exitError || !strings.HasPrefix(stderr, "convert: "+wide+": pbs: the input is UTF-16 text") {
			t.Errorf("%q: exit %d, %q; want exit 1 naming %s as UTF-16", args, code, stderr, wide)
		}
	}
	// A file of 0 or 1 byte, and two good ones, are read as before.
	one := filepath.Join(t.TempDir(), "one.log")
	if err := os.WriteFile(one, []byte("\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCmd(t, "", "-from", "pbs", "-o", os.DevNull, good, one, good); code != 0 {
		t.Errorf("exit %d: %s", code, stderr)
	}
}
