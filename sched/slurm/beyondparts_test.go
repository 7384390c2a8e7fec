package slurm_test

import (
	"context"
	"strings"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/slurm"
	"github.com/batchq/batchq/swf"
)

// TestNodePlanFitsAcrossPartitions: the named-node plan fits every job a
// cycle tests, as Slurm's backfill does. Partition a on n1, b on n2, two
// nodes of 4 CPUs. n1 runs a job of a to 7200 s, n2 a job of b of 2 CPUs
// to 300 s; then, in this order, b's job 3 of 4 CPUs (reserves n2 at
// 300), a's job 4 of 1 CPU (no room on n1 within bf_window) and b's job 5
// of 2 CPUs for 200 s, which fits n2's 2 free CPUs before job 3's
// reservation: backfill starts it at its first cycle. Site parts of
// examples/slurmcheck met this case, batch's jobs behind debug's.
//
// Checked: with the pool plan's shortcut (beyondOf) in the named-node
// plan, job 5 was passed over as starting no earlier than job 4, which
// asks fewer CPUs for less time on other nodes, and started at 403.
func TestNodePlanFitsAcrossPartitions(t *testing.T) {
	conf := `NodeName=n[1-2] CPUs=4
PartitionName=a Nodes=n1 Default=YES
PartitionName=b Nodes=n2
SchedulerParameters=bf_interval=5,bf_resolution=10,bf_window=10
`
	site, _, err := slurm.ParseConf(strings.NewReader(conf))
	if err != nil {
		t.Fatal(err)
	}
	site.NamedNodes = true
	site.PartitionNames = map[int64]string{1: "a", 2: "b"}
	p, err := slurm.New(site, sched.Config{Nodes: []swf.Node{{Name: "n", Count: 2, Cores: 4}}})
	if err != nil {
		t.Fatal(err)
	}
	job := func(id, submit, queue, cpus, run, limit int64) swf.Job {
		j := swf.NewJob()
		j.ID, j.Submit, j.Queue, j.AllocProcs, j.ReqProcs, j.RunTime, j.ReqTime = id, submit, queue, cpus, cpus, run, limit
		j.Demand = &swf.Demand{Nodes: 1}
		return j
	}
	jobs := []swf.Job{
		job(1, 0, 1, 4, 7200, 7200),
		job(2, 0, 2, 2, 300, 300),
		job(3, 1, 2, 4, 100, 100),
		job(4, 2, 1, 1, 100, 100),
		job(5, 3, 2, 2, 200, 200),
	}
	res, err := p.Run(context.Background(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Records {
		if r.Job.ID == 5 && (r.Start >= 300 || !r.Backfilled) {
			t.Errorf("job 5 started at %d (backfilled %v); want before job 3's reservation at 300, by backfill", r.Start, r.Backfilled)
		}
		if r.Job.ID == 3 && (r.Start < 300 || r.Start >= 310) {
			t.Errorf("job 3 started at %d; want within a few seconds of job 2's end at 300", r.Start)
		}
	}
	if _, _, ok := p.PlanMisses(); !ok {
		t.Error("the cycles did not plan on named nodes")
	}
}
