package slurm

import (
	"context"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// TestNodePlanMemory: the named-node plan counts a node's memory and
// GPUs as cons_tres's will-run test does, not its CPUs alone. Two nodes
// of 4 CPUs, 4000 MB and 4 GPUs: job 1 (1 CPU, 3500 MB) runs on node 0 to
// 1000, job 2 (4 CPUs) fills node 1 to 500. Job 3 (1 CPU, 3000 MB, at 10)
// fits nowhere now: node 0 has the CPUs but not the memory. Slurm plans
// it on node 1 at 500 (job 2's limit) and backfills job 4 (1 CPU, 100 MB,
// 60 s, at 11) on node 0 at once. Counting CPUs alone the plan found job 3
// startable on node 0 now, the start failed, and it reserved node 0 from
// the next second for job 3's whole limit: job 4 waited for that. Job 5
// (1 CPU, 2 GPUs, 100 MB, at 12) fits nowhere now either (job 1 holds 3
// of node 0's 4 GPUs) and starts beside job 3 on node 1 at 500.
func TestNodePlanMemory(t *testing.T) {
	job := func(id, submit, cpus, mem, gpus, run, limit int64) swf.Job {
		j := nodeJob(id, submit, cpus, run, limit)
		j.Demand = &swf.Demand{Nodes: 1, Memory: mem, GPUs: 1000 * gpus}
		return j
	}
	jobs := []swf.Job{job(1, 0, 1, 3500, 3, 1000, 1000), job(2, 0, 4, 100, 0, 500, 500),
		job(3, 10, 1, 3000, 0, 100, 300), job(4, 11, 1, 100, 0, 50, 60), job(5, 12, 1, 100, 2, 50, 60)}
	p, err := New(Config{NamedNodes: true}, sched.Config{Nodes: []swf.Node{{Name: "n", Count: 2, Cores: 4, Memory: 4000, GPUs: 4}}, KeepShares: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Run(context.Background(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	for k, r := range res.Records {
		sh := res.Shares(k)
		switch r.Job.ID {
		case 4:
			if len(sh) != 1 || sh[0].Node != 0 || r.Start > 100 {
				t.Errorf("job 4 at %d on %+v; want node 0 at a cycle before 100", r.Start, sh)
			}
		case 3, 5:
			if len(sh) != 1 || sh[0].Node != 1 || r.Start < 500 || r.Start > 510 {
				t.Errorf("job %d at %d on %+v; want node 1 at 500", r.Job.ID, r.Start, sh)
			}
		}
	}
}

// TestNodePlanMemoryRelease: the plan gives a running job's memory back
// at its end (its limit), not only its CPUs. Two nodes of 4 CPUs and
// 4000 MB: job 1 (1 CPU, 3500 MB) runs on node 0 to 1000, job 2 (1 CPU,
// 3500 MB) on node 1 to 2000. Job 3 (2 CPUs, 3000 MB, at 10) fits
// nowhere now; the plan finds node 0 at 1000, when job 1's memory comes
// back, and reserves it. Job 4 (3 CPUs, 100 MB, 5000 s, at 11) fits on
// either node now, and keeps off node 0, reserved over its span: it
// starts on node 1 and job 3 on node 0 at 1000. A plan that kept the
// memory held past a job's end found no start for job 3, reserved no
// node, and job 4 took node 0's CPUs: job 3 waited for job 2's end.
func TestNodePlanMemoryRelease(t *testing.T) {
	job := func(id, submit, cpus, mem, run, limit int64) swf.Job {
		j := nodeJob(id, submit, cpus, run, limit)
		j.Demand = &swf.Demand{Nodes: 1, Memory: mem}
		return j
	}
	jobs := []swf.Job{job(1, 0, 1, 3500, 1000, 1000), job(2, 0, 1, 3500, 2000, 2000),
		job(3, 10, 2, 3000, 100, 300), job(4, 11, 3, 100, 5000, 5000)}
	p, err := New(Config{NamedNodes: true}, sched.Config{Nodes: []swf.Node{{Name: "n", Count: 2, Cores: 4, Memory: 4000}}, KeepShares: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Run(context.Background(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	for k, r := range res.Records {
		sh := res.Shares(k)
		switch r.Job.ID {
		case 3:
			if len(sh) != 1 || sh[0].Node != 0 || r.Start < 1000 || r.Start > 1010 {
				t.Errorf("job 3 at %d on %+v; want node 0 at 1000", r.Start, sh)
			}
		case 4:
			if len(sh) != 1 || sh[0].Node != 1 || r.Start > 100 {
				t.Errorf("job 4 at %d on %+v; want node 1 at a cycle before 100", r.Start, sh)
			}
		}
	}
}
