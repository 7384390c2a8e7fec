package cli

import (
	"bytes"
	"flag"
	"io"
	"slices"
	"strings"
	"testing"
)

// A flag of one value given twice, before or after the arguments, is a
// usage error (exit 2) that names it; it replaced the first with no word
// ("-machine 100 -machine 200" simulated 200). A repeatable flag takes
// every value; the flag set's values are its own again after the parse.
func TestFlagGivenTwice(t *testing.T) {
	newSet := func() (*flag.FlagSet, *[]string) {
		fs := NewFlagSet("t")
		fs.Int("machine", 0, "machine size")
		fs.String("o", "", "output")
		fs.Bool("json", false, "JSON")
		var list []string
		fs.Func("trace", "a log (repeatable)", func(v string) error { list = append(list, v); return nil })
		return fs, &list
	}
	for _, c := range []struct {
		args []string
		want string // in the error; "" none
	}{
		{[]string{"-machine", "100", "-machine", "200", "log"}, `-machine given twice ("100", then "200")`},
		{[]string{"-machine", "100", "log", "-machine=200"}, `-machine given twice ("100", then "200")`},
		{[]string{"log", "-o", "a", "other", "-o", "b"}, `-o given twice ("a", then "b")`},
		{[]string{"-json", "log", "-json=false"}, "-json given twice"},
		{[]string{"-trace", "a", "x", "-trace", "b", "-machine", "1"}, ""},
		{[]string{"-machine", "1", "--", "-machine", "2"}, ""}, // (an argument after "--")
	} {
		fs, list := newSet()
		var out bytes.Buffer
		pos, err := ParseArgs(fs, c.args, "usage\n", &out)
		var stderr strings.Builder
		code := Status("t", &stderr, err)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.args, err)
		case c.want == "":
			if len(*list) == 2 && !slices.Equal(*list, []string{"a", "b"}) || len(pos) == 0 {
				t.Errorf("%q: traces %q, arguments %q", c.args, *list, pos)
			}
		case code != ExitUsage || !strings.Contains(stderr.String(), c.want):
			t.Errorf("%q: exit %d, %q; want exit 2 saying %q", c.args, code, stderr.String(), c.want)
		}
		// The values are the flag set's own again: -h's defaults as a
		// fresh set prints them, a second parse as the first.
		fresh, _ := newSet()
		var a, b bytes.Buffer
		fs.SetOutput(&a)
		fs.PrintDefaults()
		fresh.SetOutput(&b)
		fresh.PrintDefaults()
		if a.String() != b.String() {
			t.Errorf("%q: defaults after the parse\n%s\nwant\n%s", c.args, a.String(), b.String())
		}
		fs.SetOutput(io.Discard)
	}
	fs, _ := newSet()
	for range 2 {
		if _, err := Parse(fs, []string{"-machine", "5"}); err != nil {
			t.Errorf("a second parse of one flag set: %v", err)
		}
	}
}
