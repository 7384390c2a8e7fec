package swf

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A log saved by an editor that writes a UTF-8 byte order mark: its first
// line, a header comment, was read as a job line ("line 1, field 1 (job
// number): "\ufeff;": not a number"), so every command refused the file.
func TestOpenByteOrderMark(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bom.swf")
	if err := os.WriteFile(path, []byte("\ufeff; MaxProcs: 8\n1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h, jobs, err := ReadFile(path)
	if err != nil || len(jobs) != 1 || h.MaxProcs != 8 {
		t.Errorf("ReadFile: %d jobs, error %v; want MaxProcs 8 and 1 job", len(jobs), err)
	}
}

// An odd machine-size header: a value that is not a number ("abc"), one
// past int64 ("99999999999999999999") or a key spelled "maxprocs" or
// ";MaxProcs:100" is not read as the size, and MachineSize said the header
// had "neither MaxProcs nor MaxNodes" (every command repeats it), which
// is false: it has one, unreadable. The error names the line, so that the
// user can mend it, and is still ErrNoMachineSize.
func TestMachineSizeUnreadable(t *testing.T) {
	for _, line := range []string{"; MaxProcs: abc", "; MaxProcs: 99999999999999999999", "; maxprocs: 100", ";MaxProcs:100"} {
		r := NewReader(strings.NewReader(line + "\n1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"))
		h, err := r.Header()
		if err != nil {
			t.Fatal(err)
		}
		size, err := h.MachineSize()
		if err == nil && size == 100 {
			continue // read as intended
		}
		if err == nil || strings.Contains(err.Error(), "neither MaxProcs nor MaxNodes") || !errors.Is(err, ErrNoMachineSize) {
			t.Errorf("%q: MachineSize %d, %v; want the value read, or an error naming the unreadable line", line, size, err)
		}
	}
}
