// Package cli holds what the example commands share about their command
// lines.
package cli

import (
	"flag"
	"strings"
)

// Parse parses args with fs, accepting flags before and after the
// positional arguments ("--" ends the flags), and returns the positional
// ones in order. Errors are fs.Parse's (flag.ErrHelp for -h).
func Parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if n := len(args) - len(rest); n > 0 && endedByTerminator(fs, args[:n]) {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// endedByTerminator reports whether fs.Parse stopped after a "--" that
// ended the flags, walking the consumed arguments as package flag does:
// a "--" that is the value of a non-boolean flag ("-o --") is no
// terminator (it was taken for one, and every later flag for a
// positional argument).
func endedByTerminator(fs *flag.FlagSet, consumed []string) bool {
	for i := 0; i < len(consumed); i++ {
		s := consumed[i]
		if s == "--" {
			return true
		}
		name := strings.TrimPrefix(strings.TrimPrefix(s, "-"), "-")
		if strings.Contains(name, "=") {
			continue
		}
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			continue
		}
		i++ // the next argument is this flag's value
	}
	return false
}
