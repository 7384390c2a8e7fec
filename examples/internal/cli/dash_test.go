package cli

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// "-" as an output that is only ever a file or a directory is a usage
// error, and nothing named "-" is made: simulate -out -, convert -ids -,
// replay -out -, sweep run -out - made a file or directory named "-" in
// the working directory, where elsewhere "-" is standard input or output.
func TestDashOutput(t *testing.T) {
	t.Chdir(t.TempDir())
	var u UsageError
	if err := DashOutput("-out", "-", "standard output carries the report"); !errors.As(err, &u) ||
		!strings.Contains(err.Error(), "-out -: standard output carries the report") {
		t.Errorf("DashOutput: %v, want a usage error", err)
	}
	if err := OutputDir("-plot", "-"); !errors.As(err, &u) || !strings.Contains(err.Error(), "-plot -: the figures go to a directory") {
		t.Errorf("OutputDir: %v, want a usage error", err)
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error(`a file or directory named "-" was made`)
	}
	for _, p := range []string{"", "./-", "out.swf"} {
		if err := DashOutput("-out", p, "x"); err != nil {
			t.Errorf("%q: %v", p, err)
		}
	}
}
