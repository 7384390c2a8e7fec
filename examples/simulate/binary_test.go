package main

import (
	"strings"
	"testing"
)

// A PNG given as the log is told as binary data on every path (streamed,
// whole with -check, standard input), not drawn the hint to skip its
// lines (-lenient), which cannot make it a log: its first line is
// letters but 0x89.
func TestPNGNotText(t *testing.T) {
	png := "\x89PNG\r\n\x1a\n" + strings.Repeat("IHDR data\n", 3)
	p := writeTrace(t, t.TempDir(), "plot.png", png)
	for _, args := range [][]string{{p}, {p, "-check"}, {"-"}} {
		code, _, errs := runIn(t, png, args...)
		if code != 1 || !strings.Contains(errs, "binary data, not a text log") || strings.Contains(errs, "-lenient skips") {
			t.Errorf("%v: exit %d, stderr %q; want binary data said, without the -lenient hint", args, code, errs)
		}
	}
}
