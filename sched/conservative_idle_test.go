package sched_test

import (
	"context"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// A job that runs 100 s past its 1 s estimate spoils the reservations of
// the jobs planned after it (S3). When it ends, the machine is idle: the
// passed reservations, held all at once at now, overdrew the plan, so no
// job fitted now, the next reservation fell at a planned end nothing wakes,
// and the jobs waited on an idle machine for ever (ErrStall; schedtest's
// TestBuiltins/Conservative found it with rapid, seed 1205076540184886477).
func TestConservativeIdleWithPassedReservations(t *testing.T) {
	type spec struct{ est, run, size int64 }
	var specs []spec
	for range 8 {
		specs = append(specs, spec{1, 0, 1})
	}
	specs = append(specs, spec{1, 101, 11}) // overruns its estimate
	for range 21 {
		specs = append(specs, spec{1, 0, 1})
	}
	specs = append(specs, spec{1, 0, 7}, spec{1, 0, 8}, spec{3600, 1200, 10}, spec{1, 0, 1}, spec{1, 0, 1}, spec{2, 0, 17})
	jobs := make([]swf.Job, len(specs))
	for i, s := range specs {
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.AllocProcs, j.ReqProcs, j.ReqTime, j.User = int64(i+1), 0, s.run, s.size, s.size, s.est, 1
		jobs[i] = j
	}
	p, _ := sched.LookupPreset("conservative")
	pool := p.New(17)
	nodes := p.New(0)
	nodes.Nodes = []swf.Node{{Name: "n", Count: 17, Cores: 1}}
	for name, cfg := range map[string]sched.Config{"pool": pool, "nodes": nodes} {
		res, err := sched.Run(context.Background(), cfg, jobs)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, r := range res.Records {
			if r.Start < 0 {
				t.Errorf("%s: job %d never started", name, r.Job.ID)
			}
		}
	}
}
