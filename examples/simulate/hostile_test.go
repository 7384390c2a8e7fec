package main

import (
	"strings"
	"testing"
)

// A header that names the machine size in a form not read as one (0, a
// negative number, a word) is quoted, as forecast, replay and varq quote
// it, not called absent.
func TestUnreadableMachineSizeNamed(t *testing.T) {
	dir := t.TempDir()
	body := small[strings.Index(small, "   1 "):]
	for _, c := range []struct{ line, want string }{
		{"; MaxProcs: 0\n", `"; MaxProcs: 0" gives no machine size`},
		{"; MaxProcs: -5\n; MaxNodes: -5\n", `"; MaxProcs: -5" gives no machine size`},
		{"; MaxNodes: lots\n", `"; MaxNodes: lots" gives no machine size`},
		{"", "header has neither MaxProcs nor MaxNodes"},
	} {
		p := writeTrace(t, dir, "m.swf", c.line+body)
		code, out, errs := runCmd(t, p)
		if code != 1 || out != "" || !strings.Contains(errs, c.want) || !strings.Contains(errs, "pass -machine") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 1 and %q", c.line, code, out, errs, c.want)
		}
	}
}
