package cli

import (
	"fmt"
	"os"
	"path/filepath"
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
// simulated schedule). A path that does not exist yet is not an input,
// nor is one that is not a regular file: creating a device or a pipe
// truncates nothing (-o /dev/stdout with input and output one terminal).
func NotInput(flagName, out string, inputs ...string) error {
	fo, err := os.Stat(out)
	if err != nil || !fo.Mode().IsRegular() {
		return nil
	}
	for _, in := range inputs {
		if fi, err := os.Stat(in); err == nil && os.SameFile(fo, fi) {
			return Usagef("%s %s: is the input %s; the command would overwrite it", flagName, out, in)
		}
	}
	return nil
}

// DistinctOutputs refuses two outputs that name one file, by any name
// (DIR/./f, a link): the second written would replace the first (convert
// -o F -ids F, simulate -out F -jobs-out F). An empty path is no output.
func DistinctOutputs(flagA, a, flagB, b string) error {
	if a == "" || b == "" {
		return nil
	}
	if filepath.Clean(a) == filepath.Clean(b) || NotInput(flagB, b, a) != nil {
		return Usagef("%s %s and %s %s name the same file", flagA, a, flagB, b)
	}
	return nil
}

// OutputDir makes the directory a flag names for the command's figures
// before the run, so that one that cannot be made fails at once, not
// after the run it was to hold (tsafrir -plot DIR ran its 89 simulations,
// 27 s, then failed on mkdir). An empty dir is none.
func OutputDir(flagName, dir string) error {
	if dir == "" {
		return nil
	}
	if err := DashOutput(flagName, dir, "the figures go to a directory"); err != nil {
		return err // (replay -out - made a directory named "-")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%s: %w", flagName, err)
	}
	return nil
}

// OutputFile checks, before the run, that the file a flag names can be
// created where it is: its directory exists, and it is not itself a
// directory. Such a file failed once the run it was to hold was over
// (simulate -out /missing/dir/s.swf simulated the whole log, then said
// "open …: no such file or directory"). An empty path is none, as is
// "-" (standard output, where a flag takes it; DashOutput refuses it
// where not). Nothing is created.
func OutputFile(flagName, path string) error {
	if path == "" || path == "-" {
		return nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s %s: is a directory, want a file", flagName, path)
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case err != nil:
		return fmt.Errorf("%s %s: its directory: %w", flagName, path, err)
	case !fi.IsDir():
		return fmt.Errorf("%s %s: %s is not a directory", flagName, path, dir)
	}
	return nil
}

// DashOutput refuses "-" as the file (or directory) of an output flag that
// writes only files: elsewhere "-" is standard input (TRACE -) or output (estimates
// -out -), and such a flag created a file named "-" in the working
// directory. why says what standard output carries instead.
func DashOutput(flagName, path, why string) error {
	if path != "-" {
		return nil
	}
	return Usagef("%s -: %s; give a name (./- for one named -)", flagName, why)
}
