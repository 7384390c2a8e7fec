package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// A log whose jobs name several partitions is replayed as one pool, and
// the text and -json say so (cli.Partitions): forecast said nothing.
func TestPartitionsSaid(t *testing.T) {
	path := filepath.Join(t.TempDir(), "das2.swf")
	if err := os.WriteFile(path, []byte(clitest.DAS2Like(40, true)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd(t, "-predictors", "naive", path)
	if code != 0 || !strings.Contains(out, "the jobs name 5 partitions (SWF field 16; jobs: 120 in partition 1 fs0, 40 in partition 2 fs1, 40 in partition 3 fs2, 40 in partition 4 fs3, 40 in partition 5 fs4); "+
		"replayed as one pool of 400 processors, the archive's reading when they share one machine; if they are separate machines (clusters), simulate -partition N simulates one alone\n") {
		t.Errorf("exit %d, %s\n%s; want the partitions said", code, errs, out)
	}
	code, out, errs = runCmd(t, "-predictors", "naive", "-json", path)
	var r struct {
		P *struct {
			By   []map[string]any `json:"by_partition"`
			Pool int64            `json:"one_pool_processors"`
		} `json:"partitions"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &r); code != 0 || err != nil || r.P == nil || len(r.P.By) != 5 || r.P.Pool != 400 {
		t.Errorf("exit %d, %v, %s\n%s; want partitions of 5 on a pool of 400", code, err, errs, out)
	}
}
