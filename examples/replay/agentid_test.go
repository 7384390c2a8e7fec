package main

import (
	"context"
	"math"
	"testing"

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
// of a job that had started: now an error says why.
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
	if err := p.check(context.Background(), 8, []swf.Job{line(math.MaxInt64, 1)}); err == nil || p.checked {
		t.Errorf("a job 2^63 − 1: checked %v, ran %v, error %v; want an error", p.checked, p.ran, err)
	}
}
