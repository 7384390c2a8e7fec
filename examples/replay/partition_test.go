package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// A trace whose jobs name several partitions is simulated as one pool,
// and the text and -json say so (cli.Partitions): replay said nothing.
func TestPartitionsSaid(t *testing.T) {
	path := filepath.Join(t.TempDir(), "das2.swf")
	if err := os.WriteFile(path, []byte(clitest.DAS2Like(10, true)), 0o644); err != nil {
		t.Fatal(err)
	}
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
	var r struct {
		P *struct {
			By   []map[string]any `json:"by_partition"`
			Pool int64            `json:"one_pool_processors"`
		} `json:"partitions"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || r.P == nil || len(r.P.By) != 5 || r.P.Pool != 400 {
		t.Errorf("%v; -json partitions %+v, want 5 on a pool of 400", err, r.P)
	}
}
