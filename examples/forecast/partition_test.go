package main

import (
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// A log whose jobs name several partitions is replayed as one pool, and
// the text and -json say so (cli.Partitions): forecast said nothing.
func TestPartitionsSaid(t *testing.T) {
	path := clitest.DAS2File(t, 40, true)
	code, out, errs := runCmd(t, "-predictors", "naive", path)
	if code != 0 || !strings.Contains(out, "the jobs name 5 partitions (SWF field 16; jobs: 120 in partition 1 fs0, 40 in partition 2 fs1, 40 in partition 3 fs2, 40 in partition 4 fs3, 40 in partition 5 fs4); "+
		"replayed as one pool of 400 processors, the archive's reading when they share one machine; if they are separate machines (clusters), simulate -partition N simulates one alone\n") {
		t.Errorf("exit %d, %s\n%s; want the partitions said", code, errs, out)
	}
	code, out, errs = runCmd(t, "-predictors", "naive", "-json", path)
	if code != 0 {
		t.Fatalf("-json: exit %d, %s", code, errs)
	}
	if p := clitest.PartitionsOf(t, out); p == nil || len(p.ByPartition) != 5 || p.Pool != 400 {
		t.Errorf("-json partitions %+v\n%s; want partitions of 5 on a pool of 400", p, out)
	}
}
