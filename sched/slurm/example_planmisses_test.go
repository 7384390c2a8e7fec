package slurm_test

import (
	"context"
	"fmt"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/slurm"
	"github.com/batchq/batchq/swf"
)

// A run on named nodes says whether its backfill plan ever parted from
// the machine (drift: GPUs in use differed; refused: a planned start the
// machine refused). A result with either count above 0 planned those
// jobs less exactly than Slurm's backfill would; 0 and 0 is the rule.
func ExamplePolicy_PlanMisses() {
	machine := sched.Config{Nodes: []swf.Node{{Name: "g", Count: 2, Cores: 8, GPUs: 2}}}
	p, err := slurm.New(slurm.Config{NamedNodes: true}, machine)
	if err != nil {
		fmt.Println(err)
		return
	}
	job := func(id, submit, cores, gpus, run int64) swf.Job {
		j := swf.NewJob()
		j.ID, j.Submit, j.AllocProcs, j.RunTime, j.ReqTime = id, submit, cores, run, run
		j.Demand = &swf.Demand{Nodes: 1, GPUs: gpus}
		return j
	}
	jobs := []swf.Job{job(1, 0, 8, 2000, 600), job(2, 0, 4, 1000, 900), job(3, 5, 4, 1000, 300), job(4, 6, 2, 0, 60)}
	if _, err := p.Run(context.Background(), jobs); err != nil {
		fmt.Println(err)
		return
	}
	drift, refused, ok := p.PlanMisses()
	fmt.Printf("planned on named nodes: %v; drifted cycles %d, refused starts %d\n", ok, drift, refused)
	// Output:
	// planned on named nodes: true; drifted cycles 0, refused starts 0
}
