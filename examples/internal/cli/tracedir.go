package cli

import (
	"fmt"
	"os"
)

// TraceDir checks the trace directory named by flagName before any trace
// is read: a missing directory, or a file, was reported as "open
// DIR/SDSC-SP2-…: no such file or directory" (or "not a directory"),
// naming the first trace rather than the directory.
func TraceDir(flagName, dir string) error {
	if fi, err := os.Stat(dir); err != nil {
		return fmt.Errorf("trace directory: %w (set %s or $BATCHQ_TRACES)", err, flagName)
	} else if !fi.IsDir() {
		return fmt.Errorf("trace directory %s: not a directory (set %s or $BATCHQ_TRACES)", dir, flagName)
	}
	return nil
}
