package sched_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// exclModelJobs draws jobs that ask for whole nodes, name GPU models and
// ask no GPUs (the shape placement and Result.Check disagreed on), among
// jobs of every other shape (nodeJobs).
func exclModelJobs(t *rapid.T) []swf.Job {
	jobs := nodeJobs(t)
	for i := range rapid.IntRange(1, 8).Draw(t, "exclusive") {
		j := swf.NewJob()
		j.ID = int64(len(jobs) + 1)
		j.Submit = rapid.Int64Range(0, 500).Draw(t, "submit")
		j.RunTime = rapid.Int64Range(0, 300).Draw(t, "run")
		j.ReqTime = j.RunTime + rapid.Int64Range(0, 300).Draw(t, "slack")
		j.AllocProcs = rapid.Int64Range(1, 8).Draw(t, "size")
		j.Demand = &swf.Demand{Nodes: rapid.Int64Range(1, 2).Draw(t, "nodes"), Exclusive: true,
			GPUModels: []string{rapid.SampledFrom([]string{"A", "B", "C"}).Draw(t, fmt.Sprint("model", i))}}
		jobs = append(jobs, j)
	}
	return jobs
}

// A job that asks no GPUs but names GPU models and asks for whole nodes
// runs on any node (its models are those of the GPUs it asks), as
// placement has it, and Result.Check accepts it there: it rejected the
// node's GPUs, held with the whole node, as of a model not accepted,
// under every policy. Every preset, both placements, random machines.
func TestNodesExclusiveNoGPUsAnyModel(t *testing.T) {
	presets := sched.Presets()
	rapid.Check(t, func(t *rapid.T) {
		kinds, jobs := nodeKinds(t), exclModelJobs(t)
		for _, p := range presets {
			for _, pl := range []sched.Placement{nil, sched.BestFit} {
				cfg := p.New(0)
				cfg.Nodes, cfg.Placement, cfg.KeepShares = kinds, pl, true
				res, err := sched.Run(context.Background(), cfg, jobs)
				if err != nil {
					t.Fatalf("%s: %v", p.Name, err)
				}
				if err := res.Check(); err != nil {
					t.Fatalf("%s (best fit %v): %v", p.Name, pl != nil, err)
				}
			}
		}
	})
}

// On a machine whose every node has GPUs of model B, a job that asks for
// one whole node, no GPUs and model A runs there, alone, under every
// policy, and the schedule passes Result.Check.
func TestNodesExclusiveNoGPUsOtherModel(t *testing.T) {
	kinds := []swf.Node{{Name: "b", Count: 2, Cores: 8, Memory: 64, GPUs: 4, GPUModel: "B"}}
	var jobs []swf.Job
	for i := range 6 {
		j := job(int64(i+1), int64(10*i), 100, 2, 200)
		j.Demand = &swf.Demand{Nodes: 1, Cores: 2}
		if i%2 == 0 {
			j.Demand.Exclusive, j.Demand.GPUModels = true, []string{"A"}
		}
		jobs = append(jobs, j)
	}
	for _, p := range sched.Presets() {
		for _, pl := range []sched.Placement{nil, sched.BestFit} {
			cfg := p.New(0)
			cfg.Nodes, cfg.Placement, cfg.KeepShares = kinds, pl, true
			res, err := sched.Run(context.Background(), cfg, jobs)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Records) != len(jobs) {
				t.Fatalf("%s: %d of %d jobs simulated (%v, %v)", p.Name, len(res.Records), len(jobs), res.Rejected.Excluded, res.NoNode)
			}
			if err := res.Check(); err != nil {
				t.Fatalf("%s (best fit %v): %v", p.Name, pl != nil, err)
			}
			for k := 0; k < len(jobs); k += 2 {
				if sh := res.Shares(k); len(sh) != 1 || sh[0].GPUs != 4000 || sh[0].Cores != 8 {
					t.Fatalf("%s: job %d holds %+v, want one whole node of model B, its 4 GPUs with it", p.Name, k+1, sh)
				}
			}
		}
	}
}
