package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// A PNG given as the log is told as binary data, from a file or standard
// input, not drawn the hint to skip its lines (-lenient): its first line
// is letters but 0x89.
func TestPNGNotText(t *testing.T) {
	png := "\x89PNG\r\n\x1a\n" + strings.Repeat("IHDR data\n", 3)
	p := filepath.Join(t.TempDir(), "plot.png")
	if err := os.WriteFile(p, []byte(png), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, arg := range []string{p, "-"} {
		r := clitest.Exec(run, png, arg)
		if r.Code != 1 || !strings.Contains(r.Stderr, "binary data, not a text log") || strings.Contains(r.Stderr, "-lenient skips") {
			t.Errorf("%s: exit %d, stderr %q; want binary data said, without the -lenient hint", arg, r.Code, r.Stderr)
		}
	}
}

// An SQLite database given as the log is told as binary data too: the
// SWF reader's error holds its first field alone, "SQLite", letters, which
// drew the -lenient hint.
func TestSQLiteNotText(t *testing.T) {
	db := "SQLite format 3\x00\x10\x00\x01\x01\x00@  \x00\x00\x00\x02" + strings.Repeat("\x00", 80) + "\n1 2 3\n"
	for _, lenient := range []string{"-lenient=false", "-lenient"} {
		r := clitest.Exec(run, db, lenient, "-")
		if r.Code != 1 || !strings.Contains(r.Stderr, "binary data, not a text log") || strings.Contains(r.Stderr, "-lenient skips") {
			t.Errorf("%s: exit %d, stderr %q; want binary data said, without the -lenient hint", lenient, r.Code, r.Stderr)
		}
	}
}

// A log in Windows-1252 whose job line holds a curly quote (0x93, 0x94,
// characters in it) is malformed text, not binary data: the error gives
// the hint to skip the line (-lenient), and a lenient read skips it.
func TestWindows1252Hint(t *testing.T) {
	log := "; Note: \x93cleaned\x94 \x96 by hand\n1 0 10 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n2 \x93x\x94 10 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n"
	r := clitest.Exec(run, log, "-")
	if r.Code != 1 || strings.Contains(r.Stderr, "binary data") || !strings.Contains(r.Stderr, "-lenient skips") {
		t.Errorf("exit %d, stderr %q; want the -lenient hint, not binary data", r.Code, r.Stderr)
	}
	if r := clitest.Exec(run, log, "-lenient", "-"); r.Code != 0 {
		t.Errorf("-lenient: exit %d, stderr %q", r.Code, r.Stderr)
	}
}
