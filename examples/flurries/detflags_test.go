package main

import (
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// A detector flag out of range names the flag the user typed, exit 2: the
// error named only sanitize's field ("sanitize: flurry Factor -5, want >
// 0"), which no flag is called.
func TestDetectorFlagNamed(t *testing.T) {
	for _, args := range [][]string{{"-factor", "-5"}, {"-quantile", "2"}, {"-weeklift", "NaN"}, {"-factor=+Inf"}} {
		r := clitest.Exec(run, "", args...)
		flag, value, _ := strings.Cut(strings.Join(args, "="), "=")
		if want := "flurries: " + flag + " " + value + ": "; r.Code != 2 || !strings.HasPrefix(r.Stderr, want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", args, r.Code, r.Stderr, want)
		}
	}
}

// Without -plot, -plot-logs (dropped without a word) and -exp none (ran
// nothing, printed nothing, exit 0) are usage errors naming the flag.
func TestPlotOnlyFlagsNeedPlot(t *testing.T) {
	for _, args := range [][]string{{"-plot-logs", "KTH"}, {"-plot-logs", "KTH", "-exp", "inject"}, {"-exp", "none"}} {
		r := clitest.Exec(run, "", append(args, "-traces", t.TempDir())...)
		if r.Code != 2 || !strings.Contains(r.Stderr, args[0]) || !strings.Contains(r.Stderr, "-plot DIR") || r.Stdout != "" {
			t.Errorf("%q: exit %d, stderr %q, stdout %q; want 2 naming %s", args, r.Code, r.Stderr, r.Stdout, args[0])
		}
	}
}
