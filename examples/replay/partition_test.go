package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// A trace whose jobs name several partitions is simulated as one pool,
// and the text and -json say so (cli.Partitions): replay said nothing.
func TestPartitionsSaid(t *testing.T) {
	path := clitest.DAS2File(t, 10, true)
	var out, errs bytes.Buffer
	if code := run(context.Background(), []string{"-trace", path}, strings.NewReader(""), &out, &errs); code != 0 ||
		!strings.Contains(out.String(), "the jobs name 5 partitions (SWF field 16; jobs: 30 in partition 1 fs0, 10 in partition 2 fs1, 10 in partition 3 fs2, 10 in partition 4 fs3, 10 in partition 5 fs4); "+
			"simulated as one pool of 400 processors, the archive's reading when they share one machine; if they are separate machines (clusters), simulate -partition N simulates one alone\n") {
		t.Errorf("exit %d, %s\n%s; want the partitions said", code, errs.String(), out.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"-trace", path, "-json"}, strings.NewReader(""), &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if p := clitest.PartitionsOf(t, out.String()); p == nil || len(p.ByPartition) != 5 || p.Pool != 400 {
		t.Errorf("-json partitions %+v, want 5 on a pool of 400", p)
	}
}
