package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
	"github.com/batchq/batchq/internal/jobid"
	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/varq"
)

// The planned job is numbered above every job the check's simulation
// holds, the numbers sched makes up for lines without one included, and
// its start is watched under the number it got. On a log of a real
// 10^18 + 1 and a "-1" line (sched's 10^18 + 2), it was numbered
// 10^18 + 2, refused as a duplicate, and the check failed; on a log with
// a job 2^63 − 1 the number wrapped and the check said "still waiting"
// of a job that had started: now the plan is not checked, and says why
// (it was an error that failed the whole run, schedulers and QBETS
// included).
func TestPlanCheckNumbersAboveMadeUp(t *testing.T) {
	line := func(id, submit int64) swf.Job {
		j := swf.NewJob()
		j.ID, j.Submit, j.Wait, j.RunTime, j.ReqTime, j.AllocProcs, j.ReqProcs = id, submit, 0, 5000, 5000, 1, 1
		return j
	}
	p := planResult{req: varq.Request{Nodes: 1, Walltime: 100, Start: 1000},
		plan: varq.Plan{Request: varq.Request{Nodes: 1}, Possible: true, Submit: 10, Walltime: 200}}
	if err := p.check(context.Background(), 8, []swf.Job{line(jobid.MadeUp(1), 0), line(-1, 1)}); err != nil {
		t.Fatal(err)
	}
	if !p.checked || !p.ran || p.started != 10 || !p.success {
		t.Errorf("checked %v, ran %v, started %d, success %v; want the job started at 10", p.checked, p.ran, p.started, p.success)
	}
	p.checked = false
	if err := p.check(context.Background(), 8, []swf.Job{line(math.MaxInt64, 1)}); err != nil || p.checked || !strings.Contains(p.notChecked, "2^63 − 1") {
		t.Errorf("a job 2^63 − 1: checked %v, ran %v, error %v, not checked %q; want it not checked, and why", p.checked, p.ran, err, p.notChecked)
	}
}

// A log with a job numbered 2^63 − 1 is replayed and reported whole: only
// the VARQ check, which numbers its job above the log's, is not carried
// out, and the report says why (the run failed: "varq check: a job number
// is 2^63 − 1", nothing printed).
func TestRunWithLargestJobNumber(t *testing.T) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 16\n")
	for i := range 400 {
		id := int64(i + 1)
		if i == 7 {
			id = math.MaxInt64
		}
		fmt.Fprintf(&b, "%d %d %d %d %d -1 -1 %d %d -1 1 %d 1 -1 1 -1 -1 -1\n", id, 600*i, (i*37)%900, 300+(i*53)%3000, 1+i%16, 1+i%16, 4000, 1+i%5)
	}
	path := filepath.Join(t.TempDir(), "maxid.swf")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"-trace", path}, {"-trace", path, "-json"}} {
		r := clitest.Exec(run, "", args...)
		if r.Code != 0 {
			t.Fatalf("%q: exit %d: %s", args, r.Code, r.Stderr)
		}
		if !strings.Contains(r.Stdout, "2^63 − 1") || !strings.Contains(r.Stdout, "EASY") {
			t.Errorf("%q: the report does not say why the plan was not checked:\n%s", args, r.Stdout)
		}
	}
}
