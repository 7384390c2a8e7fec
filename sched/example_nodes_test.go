package sched_test

import (
	"context"
	"fmt"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// A machine of two node kinds: two CPU nodes and one node of two A100
// GPUs. A job asks for what it needs beyond SWF's processor count with
// an swf.Demand; one without a Demand spreads its processors over as
// many nodes as it takes.
func ExampleConfig_nodes() {
	cfg := sched.EASY(0) // 0: the machine's size is the nodes' cores, 24
	cfg.Nodes = []swf.Node{
		{Name: "cpu", Count: 2, Cores: 8, Memory: 32},                            // memory in GiB here:
		{Name: "gpu", Count: 1, Cores: 8, Memory: 64, GPUs: 2, GPUModel: "A100"}, // any unit, the same for jobs
	}
	cfg.Placement = sched.BestFit
	cfg.KeepShares = true // for Check

	mk := func(id, submit, run, procs int64, d *swf.Demand) swf.Job {
		j := job(id, submit, run, procs, run)
		j.Demand = d
		return j
	}
	jobs := []swf.Job{
		// Both A100s and half of the GPU node's cores, for 100 s.
		mk(1, 0, 100, 4, &swf.Demand{Nodes: 1, Cores: 4, Memory: 16, GPUs: 2000, GPUModels: []string{"A100"}}),
		// 30% of one GPU (thousandths): none is left until job 1 ends.
		mk(2, 0, 60, 2, &swf.Demand{Nodes: 1, Cores: 2, Memory: 8, GPUs: 300}),
		// 12 cores spread over the CPU nodes; it ends before job 2's
		// reservation at 100, so it backfills.
		mk(3, 5, 50, 12, nil),
		// 4 cores with 128 GiB on one node: no node has that much memory.
		mk(4, 6, 10, 4, &swf.Demand{Nodes: 1, Cores: 4, Memory: 128}),
	}
	res, err := sched.Run(context.Background(), cfg, jobs)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res.Records {
		fmt.Printf("job %d: start %d, end %d, backfilled %v\n", r.Job.ID, r.Start, r.End, r.Backfilled)
	}
	fmt.Println("fit no node:", res.NoNode)
	fmt.Println("check:", res.Check())
	// Held over [0, 160): cores (4×100 + 2×60 + 12×50) / (24×160),
	// memory (16×100 + 8×60) / (128×160), GPUs (2×100 + 0.3×60) / (2×160).
	cores, memory, gpus := res.Use(0, 0)
	fmt.Printf("held: cores %.3f, memory %.3f, GPUs %.3f\n", cores, memory, gpus)
	// Output:
	// job 1: start 0, end 100, backfilled false
	// job 2: start 100, end 160, backfilled false
	// job 3: start 5, end 55, backfilled true
	// fit no node: map[memory:1]
	// check: <nil>
	// held: cores 0.292, memory 0.102, GPUs 0.681
}
