package cli

import (
	"flag"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

// A representative command's flags: every kind the commands use.
func testFlags() *flag.FlagSet {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Bool("v", false, "")
	fs.Bool("json", false, "")
	fs.Int("n", 0, "")
	fs.Int64("seed", 1, "")
	fs.String("o", "", "")
	fs.Float64("load", 0, "")
	fs.Duration("d", time.Second, "")
	return fs
}

// "--" given as a flag's value is that value, not the end of the flags.
func TestDashDashAsValue(t *testing.T) {
	fs := testFlags()
	pos, err := Parse(fs, []string{"-o", "--", "a", "-v", "b"})
	if err != nil || !slices.Equal(pos, []string{"a", "b"}) || fs.Lookup("o").Value.String() != "--" || fs.Lookup("v").Value.String() != "true" {
		t.Fatalf("pos %q, o=%v, v=%v, %v", pos, fs.Lookup("o").Value, fs.Lookup("v").Value, err)
	}
}

// FuzzParse: any argument list (NUL-separated) parses or fails with an
// error, never a panic. When it parses, the positional arguments are a
// subsequence of the input, and the canonical command line (the flags
// set, as -name=value, then "--", then the positional arguments) parses
// to the same values and the same positional arguments.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"a\x00-v\x00b", "-n\x003\x00x\x00-o=out\x00--\x00-v", "-o\x00--\x00a\x00-json", "-d\x001m\x00-load=0.5\x00-", "-h",
		"--seed=7\x00-n=-1\x00---v", "-o\x00\x00--\x00--", "a\x00--\x00--\x00-v", "-v=false\x00-v",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Split(line, "\x00")
		if len(args) > 64 {
			return
		}
		fs := testFlags()
		pos, err := Parse(fs, args)
		if err != nil {
			return
		}
		i := 0
		for _, p := range pos {
			for i < len(args) && args[i] != p {
				i++
			}
			if i == len(args) {
				t.Fatalf("positional %q is not in order in %q", p, args)
			}
			i++
		}
		canon := []string{}
		fs.Visit(func(fl *flag.Flag) { canon = append(canon, "-"+fl.Name+"="+fl.Value.String()) })
		canon = append(append(canon, "--"), pos...)
		fs2 := testFlags()
		pos2, err := Parse(fs2, canon)
		if err != nil {
			t.Fatalf("canonical %q: %v", canon, err)
		}
		if !slices.Equal(pos, pos2) {
			t.Fatalf("%q: positional %q, canonical %q gives %q", args, pos, canon, pos2)
		}
		fs.VisitAll(func(fl *flag.Flag) {
			if v := fs2.Lookup(fl.Name).Value.String(); v != fl.Value.String() {
				t.Fatalf("%q: -%s = %q, canonical gives %q", args, fl.Name, fl.Value, v)
			}
		})
		// A flag after the positional arguments acts as it does before
		// them (one not given yet: a second is refused, TestFlagGivenTwice).
		vSet := false
		fs.Visit(func(fl *flag.Flag) { vSet = vSet || fl.Name == "v" })
		if len(pos) > 0 && !slices.Contains(args, "--") && !vSet {
			moved := append(slices.Clone(args), "-v")
			fs3 := testFlags()
			if _, err := Parse(fs3, moved); err != nil || fs3.Lookup("v").Value.String() != "true" {
				t.Fatalf("%q then -v: v = %v, %v", args, fs3.Lookup("v").Value, err)
			}
		}
	})
}
