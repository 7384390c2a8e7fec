package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -o - is standard output, as the default; -ids - is a usage error:
// both made a file named "-" in the working directory.
func TestDashOutputs(t *testing.T) {
	log, err := filepath.Abs(testdata + "pbs-torque.log")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	code, stdout, _ := runCmd(t, "", "-from", "pbs", log, "-o", "-")
	if code != exitOK || !strings.HasPrefix(stdout, "; Version: 2.2") {
		t.Errorf("-o -: exit %d, stdout %.40q; want the trace on standard output", code, stdout)
	}
	code, _, stderr := runCmd(t, "", "-from", "pbs", log, "-ids", "-", "-o", "x.swf")
	if code != exitUsage || !strings.Contains(stderr, "-ids -: standard output carries") {
		t.Errorf("-ids -: exit %d, %q; want a usage error", code, stderr)
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error(`a file named "-" was made`)
	}
}
