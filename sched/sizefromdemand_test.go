package sched_test

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// A GPU trace as convert -from gpu writes it: processors are GPUs, and a
// CPU job has none; every job's demand gives its nodes and cores per
// node. On nodes each job is sized from its demand's cores, the CPU job
// too (counted under size_from_demand), so the utilization is the share
// of the machine's cores the jobs held, Result.Use's cores; on one pool
// of GPUs the CPU job is still rejected as no size.
func TestSizeFromDemand(t *testing.T) {
	type spec struct {
		procs, nodes, cores, gpus, submit, run int64
	}
	var jobs []swf.Job
	for i, s := range []spec{
		{8, 1, 48, 8, 0, 9000},
		{16, 2, 48, 8, 30, 200},
		{0, 1, 4, 0, 60, 1200}, // a CPU job: 0 GPUs, 0 processors
		{1, 1, 6, 1, 120, 3600},
		{2, 1, 12, 2, 240, 86400},
		{12, 2, 32, 6, 360, 14400},
		{-1, 1, 0, 0, 400, 100}, // no processors, a demand without cores: no size
	} {
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.AllocProcs, j.ReqProcs, j.ReqTime, j.Status = int64(i+1), s.submit, s.run, s.procs, s.procs, -1, 1
		j.Demand = &swf.Demand{Nodes: s.nodes, Cores: s.cores, GPUs: 1000 * s.gpus}
		jobs = append(jobs, j)
	}
	seen := map[int64]int64{} // the processors observers see on each line
	obs := sched.Hooks{Submit: func(_ int64, j *swf.Job) { seen[j.ID] = j.Size() }}
	res, err := sched.Run(context.Background(), sched.Config{Nodes: []swf.Node{{Name: "g8", Count: 4, Cores: 64, GPUs: 8}}, KeepShares: true}, jobs, obs)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Check(); err != nil {
		t.Error(err)
	}
	if len(res.Records) != 6 || len(res.Rejected.Excluded) != 1 || res.Rejected.Excluded[0].Reason != sanitize.NoSize {
		t.Fatalf("%d simulated, rejected %v; want 6 and job 7 as no size", len(res.Records), res.Rejected.Excluded)
	}
	resized := 0
	for i, want := range []int64{48, 96, 4, 6, 12, 64} {
		r := &res.Records[i]
		if r.Size != want || r.Start < 0 || seen[r.Job.ID] != want {
			t.Errorf("job %d: size %d (observers saw %d), start %d; want the demand's %d cores, started", r.Job.ID, r.Size, seen[r.Job.ID], r.Start, want)
		}
		if got := r.Changes(); slices.Contains(got, "size_from_demand") != (r.Size != r.Job.Size()) {
			t.Errorf("job %d: size %d from %d processors, changes %v", r.Job.ID, r.Size, r.Job.Size(), got)
		}
		if r.Size != r.Job.Size() {
			resized++
		}
	}
	if n := res.Changed()["size_from_demand"]; n != resized || resized != 6 {
		t.Errorf("size_from_demand counts %d jobs, %d resized; want every one of the 6", n, resized)
	}
	sum := &res.Summary
	cores, _, _ := res.Use(sum.WindowStart, sum.WindowEnd)
	if sum.Utilization <= 0 || math.Abs(sum.Utilization-cores) > 1e-12 {
		t.Errorf("utilization %v, cores held %v over [%d, %d]", sum.Utilization, cores, sum.WindowStart, sum.WindowEnd)
	}
	u := res.Utilization(256, 0, 100000)
	if c, _, _ := res.Use(0, 100000); math.Abs(u-c) > 1e-12 {
		t.Errorf("Utilization(256, 0, 100000) %v, cores held %v", u, c)
	}
	pool, err := sched.Run(context.Background(), sched.Config{MachineSize: 32}, jobs)
	if err != nil {
		t.Fatal(err)
	}
	if len(pool.Records) != 5 || pool.Changed()["size_from_demand"] != 0 {
		t.Errorf("one pool of 32 GPUs: %d simulated, changed %v; want 5 (no CPU job), none from a demand", len(pool.Records), pool.Changed())
	}
}

// A Slurm log as swf/convert writes it: the demand's cores per node are
// the job's CPUs divided among its nodes, rounded up (10 CPUs on 3 nodes:
// 4 per node), and an exclusive job's allocated CPUs are its whole nodes.
// Such processors are the job's CPUs: they stay its size (what the log,
// Slurm's job size factor and its usage count), under no rule; only
// processors the demand does not split (a GPU trace's) give way to it.
func TestSizeFromDemandKeepsSplitCPUs(t *testing.T) {
	type spec struct{ alloc, req, nodes, cores, want int64 }
	specs := []spec{
		{10, 10, 3, 4, 10}, // uneven: 4+3+3 in the log, 4 per node held
		{12, 10, 3, 4, 12}, // allocated 12 of 10 requested
		{48, 10, 3, 4, 48}, // exclusive: whole nodes allocated
		{-1, 7, 2, 4, 7},   // requested only (S5)
		{5, 5, 0, 5, 5},    // spread: cores in all
		{3, 3, 3, 4, 12},   // 3 processors on 3 nodes are not 4 per node
		{2, 2, 1, 12, 12},  // a GPU trace's 2 GPUs
		{16, 16, 2, 6, 12}, // processors above the cores: not their split
		{0, 0, 2, 4, 8},    // none: size_from_demand
	}
	var jobs []swf.Job
	for i, s := range specs {
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.AllocProcs, j.ReqProcs, j.ReqTime, j.Status = int64(i+1), int64(10*i), 100, s.alloc, s.req, 200, 1
		j.Demand = &swf.Demand{Nodes: s.nodes, Cores: s.cores, Exclusive: s.alloc == 48}
		jobs = append(jobs, j)
	}
	seen := map[int64]int64{}
	obs := sched.Hooks{Submit: func(_ int64, j *swf.Job) { seen[j.ID] = j.Size() }}
	res, err := sched.Run(context.Background(), sched.Config{Nodes: []swf.Node{{Name: "c16", Count: 4, Cores: 16}}, KeepShares: true}, jobs, obs)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Records) != len(specs) {
		t.Fatalf("%d simulated, rejected %v", len(res.Records), res.Rejected.Excluded)
	}
	if err := res.Check(); err != nil {
		t.Error(err)
	}
	// The sizes are at most what the jobs held (4 per node for 10 CPUs,
	// whole nodes for the exclusive job): no core counted twice.
	sum := &res.Summary
	if cores, _, _ := res.Use(sum.WindowStart, sum.WindowEnd); sum.Utilization <= 0 || sum.Utilization > cores+1e-12 {
		t.Errorf("utilization %v, cores held %v", sum.Utilization, cores)
	}
	for i, s := range specs {
		r := &res.Records[i]
		fromDemand := slices.Contains(r.Changes(), "size_from_demand")
		line := max(s.alloc, 0)
		if line == 0 {
			line = max(s.req, 0)
		}
		if r.Size != s.want || seen[r.Job.ID] != s.want || fromDemand != (s.want != line) {
			t.Errorf("job %d %+v: size %d (observers saw %d), changes %v; want %d", r.Job.ID, s, r.Size, seen[r.Job.ID], r.Changes(), s.want)
		}
	}
}
