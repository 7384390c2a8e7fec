package cli

import (
	"os"
	"path/filepath"
)

// DistinctInputs refuses a list of logs that names one twice, by the same
// path, another spelling of it (DIR/./f) or a link to it, and standard
// input ("-") twice: a command that scores each log would score it twice
// and print its rows twice, as if two logs agreed (qbets LOG LOG). A path
// that cannot be stat'ed is left to the read that will say why.
func DistinctInputs(paths []string) error {
	for i, a := range paths {
		fa, erra := os.Stat(a)
		for _, b := range paths[:i] {
			same := filepath.Clean(a) == filepath.Clean(b)
			if !same && a != "-" && b != "-" && erra == nil {
				fb, err := os.Stat(b)
				same = err == nil && os.SameFile(fa, fb)
			}
			if same {
				if a == b {
					return Usagef("log %s given twice: each log is read once", a)
				}
				return Usagef("logs %s and %s are the same file: each log is read once", b, a)
			}
		}
	}
	return nil
}
