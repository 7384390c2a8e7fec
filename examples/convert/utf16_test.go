package main

import (
	"os"
	"path/filepath"
	"slices"
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
	// Without a byte-order mark, little- and big-endian: a NUL beside
	// every other byte of the first line (a second such file was read as
	// malformed lines, exit 0).
	bare, bigEnd := filepath.Join(t.TempDir(), "bare.log"), filepath.Join(t.TempDir(), "bigend.log")
	le := []byte(b.String()[2:])
	be := make([]byte, len(le))
	for i := 0; i+1 < len(le); i += 2 {
		be[i], be[i+1] = le[i+1], le[i]
	}
	if err := os.WriteFile(bare, le, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bigEnd, be, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, wide := range []string{bare, bigEnd} {
		code, _, stderr := runCmd(t, "", "-from", "pbs", "-o", os.DevNull, good, wide)
		if code != exitError || !strings.HasPrefix(stderr, "convert: "+wide+": pbs: the input is UTF-16 text") {
			t.Errorf("%s after %s: exit %d, %q; want exit 1 naming it as UTF-16", wide, good, code, stderr)
		}
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

// A UTF-8 byte-order mark (an editor's, Excel's) begins any input, not
// only the first, which swf/convert reads past: the second file's first
// record was a PBS line "malformed" and a sacct header "\ufeffJobID" (a
// header without JobID, exit 1). Each file's mark is dropped.
func TestUTF8BOMEachInput(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ from, file string }{{"pbs", "pbs-torque.log"}, {"sacct", "sacct-parsable2.txt"}, {"jobcomp", "jobcomp.txt"}} {
		text, err := os.ReadFile(testdata + c.file)
		if err != nil {
			t.Fatal(err)
		}
		if c.from == "sacct" {
			// JobID alone names the jobs: the marked header lacked it.
			lines := strings.Split(string(text), "\n")
			cols := strings.Split(lines[0], "|")
			raw := slices.Index(cols, "JobIDRaw")
			for i, l := range lines {
				if f := strings.Split(l, "|"); raw >= 0 && len(f) == len(cols) {
					lines[i] = strings.Join(slices.Delete(f, raw, raw+1), "|")
				}
			}
			text = []byte(strings.Join(lines, "\n"))
		}
		plain, marked := filepath.Join(dir, c.from+".plain"), filepath.Join(dir, c.from+".bom")
		if err := os.WriteFile(plain, text, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(marked, append([]byte("\xef\xbb\xbf"), text...), 0o644); err != nil {
			t.Fatal(err)
		}
		_, want, _ := runCmd(t, "", "-from", c.from, "-json", "-o", os.DevNull, plain, plain)
		for _, args := range [][]string{{plain, marked}, {marked, marked}} {
			code, got, stderr := runCmd(t, "", append([]string{"-from", c.from, "-json", "-o", os.DevNull}, args...)...)
			if code != 0 || got != want {
				t.Errorf("%s %q: exit %d %s\n%s\nwant the report of the files without the mark:\n%s", c.from, args, code, stderr, got, want)
			}
		}
	}
}
