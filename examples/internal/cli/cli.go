// Package cli holds what the example commands share about their command
// lines.
package cli

import "flag"

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
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}
