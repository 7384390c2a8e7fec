package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

// A log idle in most of its weeks has an empty median week, by which the
// injected flurries are sized: -exp inject, sweep and weeklift said only
// "flurrytest: synthetic flurry Jobs 0, want > 0". Each now says the
// median week is empty and what the experiment needs; and a median week
// of jobs of size 0, or too small for the shape, says so too. Checked:
// fails without smallMedian (inject.go).
func TestSparseLogSaid(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("; MaxProcs: 64\n")
	for i := range 40 { // a job every 20 days: most weeks empty
		fmt.Fprintf(&b, "%d %d 0 100 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1\n", i+1, i*20*86400)
	}
	for _, name := range cleaned {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, exp := range []string{"inject", "sweep", "weeklift"} {
		r := clitest.Exec(run, "", "-exp", exp, "-traces", dir)
		if r.Code != 1 || !strings.Contains(r.Stderr, "CTC-SP2, ") ||
			!strings.Contains(r.Stderr, "the log's median week, which is empty (no job was submitted in half the log's weeks or more)") ||
			!strings.Contains(r.Stderr, "needs logs (-traces) with jobs in most of their weeks") {
			t.Errorf("-exp %s on a sparse log: exit %d, %q; want exit 1 saying the median week is empty and what is needed", exp, r.Code, r.Stderr)
		}
	}

	// A week of jobs of no size, and one too small for the scaled shape.
	// A week of one job: not empty, so no "jobs in most of their weeks"
	// (it said that, and "1 jobs of 1 processes").
	for _, c := range []struct {
		size, every int64 // processes, hours between submissions
		want        string
	}{
		{0, 28, "which has 6 jobs, all of size 0, so it has no job"},
		{1, 28, "which has 6 jobs of 6 processes in all, too few, so it has no job"},
		{1, 168, "which has 1 job of 1 process in all, too few, so it has no job: this experiment needs logs (-traces) with more jobs in a typical week"},
	} {
		var jobs []swf.Job
		for i := range 60 { // a job every c.every hours: 28, 6 a week
			jobs = append(jobs, swf.Job{ID: int64(i + 1), Submit: int64(i) * c.every * 3600, RunTime: 100, AllocProcs: c.size, ReqProcs: c.size, User: 1})
		}
		_, err := injectLog("small", jobs, []shape{flurry375Scaled}, sanitize.FlurryConfig{})
		if err == nil || !strings.Contains(err.Error(), "small, 375-job shape, SDSC-SP2 strength: the flurry is sized by the log's median week, "+c.want) {
			t.Errorf("size %d, every %d h: %v, want %q", c.size, c.every, err, c.want)
		}
	}
	// The scale of an empty median week is no number: said, not +Inf.
	if _, _, _, _, err := weekScale("sparse", []swf.Job{{ID: 1, Submit: 0}, {ID: 2, Submit: 30 * 86400}}, flurry375.spec(0, 0)); err == nil ||
		!strings.Contains(err.Error(), "sparse: the flurry is sized by the log's median week, which is empty") {
		t.Errorf("weekScale of an empty median week: %v", err)
	}
}
