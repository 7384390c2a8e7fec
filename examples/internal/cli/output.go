package cli

import (
	"os"
)

// RemovePartial removes the output file path that a failed write left
// behind, if it is a regular file: a device, a pipe or a symlink named as
// the output is not the command's to remove (simulate -out /dev/full
// removed /dev/full when the write failed).
func RemovePartial(path string) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() {
		os.Remove(path)
	}
}

// NotInput refuses an output path that is one of the inputs (the same
// file, by any name): the command would truncate its input when it
// creates the output (simulate -out LOG LOG replaced the log with the
// simulated schedule). A path that does not exist yet is not an input.
func NotInput(flagName, out string, inputs ...string) error {
	fo, err := os.Stat(out)
	if err != nil {
		return nil
	}
	for _, in := range inputs {
		if fi, err := os.Stat(in); err == nil && os.SameFile(fo, fi) {
			return Usagef("%s %s: is the input %s; the command would overwrite it", flagName, out, in)
		}
	}
	return nil
}
