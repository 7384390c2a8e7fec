package cli

import (
	"flag"
	"io"
	"slices"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		args, pos []string
		v         bool
	}{
		{[]string{"a", "-v", "b"}, []string{"a", "b"}, true},
		{[]string{"-v", "a"}, []string{"a"}, true},
		{[]string{"a", "--", "-v"}, []string{"a", "-v"}, false},
		{nil, nil, false},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		v := fs.Bool("v", false, "")
		pos, err := Parse(fs, c.args)
		if err != nil || !slices.Equal(pos, c.pos) || *v != c.v {
			t.Errorf("%q: %q, v=%v, %v", c.args, pos, *v, err)
		}
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if _, err := Parse(fs, []string{"a", "-nope"}); err == nil {
		t.Error("unknown flag accepted")
	}
}
