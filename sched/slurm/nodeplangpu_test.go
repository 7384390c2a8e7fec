package slurm

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// startsOn runs jobs on site and machine (KeepShares set) and returns
// each job's start and first node.
func startsOn(t *testing.T, site Config, machine sched.Config, jobs []swf.Job) (map[int64]int64, map[int64]sched.NodeFree) {
	t.Helper()
	machine.KeepShares = true
	p, err := New(site, machine)
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Run(context.Background(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	start, on := map[int64]int64{}, map[int64]sched.NodeFree{}
	for k, r := range res.Records {
		start[r.Job.ID] = r.Start
		if sh := res.Shares(k); len(sh) > 0 {
			on[r.Job.ID] = sh[0]
		}
	}
	return start, on
}

// TestNodePlanWholeGPUs: the named-node plan counts GPUs as devices, as
// Slurm's gres/gpu and sched's machine do, not as thousandths summed
// over a node. Two nodes of 8 CPUs and 4 GPUs: job 1 (8 CPUs, 4 GPUs)
// holds node 0 to 500; jobs 2–5 (1 CPU, 0.6 GPU each) go on node 1, one
// GPU each (0.4 left on every GPU: 1.6 summed, no GPU whole) to 1000.
// Job 6 (1 CPU, 1 GPU, 300 s, at 10) fits nowhere now: Slurm plans it on
// node 0 at 500 and backfills job 7 (1 CPU, 60 s, at 11) on node 1 at
// once. Summed, the plan found job 6 startable on node 1 now, the
// machine refused the start, and job 6 reserved node 1 from the next
// second over its limit: job 7 waited for node 0 at 500.
func TestNodePlanWholeGPUs(t *testing.T) {
	job := func(id, submit, cpus, gpus, run, limit int64) swf.Job {
		j := nodeJob(id, submit, cpus, run, limit)
		j.Demand = &swf.Demand{Nodes: 1, GPUs: gpus}
		return j
	}
	jobs := []swf.Job{job(1, 0, 8, 4000, 500, 500)}
	for id := int64(2); id <= 5; id++ {
		jobs = append(jobs, job(id, 0, 1, 600, 1000, 1000))
	}
	jobs = append(jobs, job(6, 10, 1, 1000, 100, 300), job(7, 11, 1, 0, 50, 60))
	start, on := startsOn(t, Config{NamedNodes: true}, sched.Config{Nodes: []swf.Node{{Name: "n", Count: 2, Cores: 8, GPUs: 4}}}, jobs)
	for id := int64(2); id <= 5; id++ {
		if on[id].Node != 1 || start[id] >= 10 {
			t.Fatalf("job %d at %d on %+v; want node 1 before 10 (the case's premise)", id, start[id], on[id])
		}
	}
	if on[7].Node != 1 || start[7] > 100 {
		t.Errorf("job 7 at %d on %+v; want node 1 at a cycle before 100", start[7], on[7])
	}
	if on[6].Node != 0 || start[6] < 500 || start[6] > 510 {
		t.Errorf("job 6 at %d on %+v; want node 0 at 500", start[6], on[6])
	}
}

// TestNodePlanShareOfGPU: a share of one GPU (the Alibaba trace's) fits
// only where one GPU has that much left. A node of 8 CPUs beside one of
// 8 CPUs and 2 GPUs: job 1 (8 CPUs) fills node 0 to 500; jobs 2 and 3
// (1 CPU, 0.6 GPU) leave 0.4 of each GPU of node 1 to 1000 (0.8 summed).
// Job 4 (0.5 GPU, 300 s, at 10) fits on no GPU before 1000: Slurm's
// plan (whole GPUs: a share is the model's) reserves node 1 from 1000,
// and job 5 (1 CPU, 500 s, at 11) backfills on node 1 at once. Summed,
// job 4 was startable now, the start was refused, and it reserved node
// 1 from the next second: job 5 waited for node 0 at 500.
func TestNodePlanShareOfGPU(t *testing.T) {
	job := func(id, submit, cpus, gpus, run, limit int64) swf.Job {
		j := nodeJob(id, submit, cpus, run, limit)
		j.Demand = &swf.Demand{Nodes: 1, GPUs: gpus}
		return j
	}
	jobs := []swf.Job{job(1, 0, 8, 0, 500, 500), job(2, 0, 1, 600, 1000, 1000), job(3, 0, 1, 600, 1000, 1000),
		job(4, 10, 1, 500, 100, 300), job(5, 11, 1, 0, 500, 500)}
	start, on := startsOn(t, Config{NamedNodes: true}, sched.Config{Nodes: []swf.Node{{Name: "c", Count: 1, Cores: 8}, {Name: "g", Count: 1, Cores: 8, GPUs: 2}}}, jobs)
	if on[1].Node != 0 || on[2].Node != 1 || on[3].Node != 1 || on[3].GPUs != 600 {
		t.Fatalf("jobs 1–3 on %+v, %+v, %+v; want nodes 0, 1, 1 (the case's premise)", on[1], on[2], on[3])
	}
	if on[5].Node != 1 || start[5] > 100 {
		t.Errorf("job 5 at %d on %+v; want node 1 at a cycle before 100", start[5], on[5])
	}
	if on[4].Node != 1 || start[4] < 1000 || start[4] > 1010 {
		t.Errorf("job 4 at %d on %+v; want node 1 at 1000", start[4], on[4])
	}
}

// TestNodePlanExclusive: an exclusive job holds its whole node in the
// plan, as Slurm and sched's machine hold it. Two nodes of 4 CPUs: job 1
// (1 CPU, exclusive) holds node 0 whole to 1000; job 2 (3 CPUs) node 1 to
// 2000. Job 3 (4 CPUs, 300 s, at 10) fits nowhere now; at 1000 job 1
// gives node 0 back whole: Slurm reserves node 0 from 1000, and job 4 (1
// CPU, 2500 s, at 11) backfills on node 1 at once. A plan giving back
// job 1's one CPU found job 3 a start on node 1 at 2000 and reserved it:
// job 4 waited.
func TestNodePlanExclusive(t *testing.T) {
	j1 := nodeJob(1, 0, 1, 1000, 1000)
	j1.Demand.Exclusive = true
	jobs := []swf.Job{j1, nodeJob(2, 0, 3, 2000, 2000), nodeJob(3, 10, 4, 100, 300), nodeJob(4, 11, 1, 2500, 2500)}
	start, on := startsOn(t, Config{NamedNodes: true}, sched.Config{Nodes: []swf.Node{{Name: "n", Count: 2, Cores: 4}}}, jobs)
	if on[1].Node != 0 || on[1].Cores != 4 {
		t.Fatalf("job 1 holds %+v; want node 0 whole (the case's premise)", on[1])
	}
	if on[4].Node != 1 || start[4] > 100 {
		t.Errorf("job 4 at %d on %+v; want node 1 at a cycle before 100", start[4], on[4])
	}
	if on[3].Node != 0 || start[3] < 1000 || start[3] > 1010 {
		t.Errorf("job 3 at %d on %+v; want node 0 at 1000", start[3], on[3])
	}
}

// TestNodePlanExclusiveWaits: an exclusive job waiting is planned where a
// node comes free whole. Two nodes of 4 CPUs: job 1 (3 CPUs) on node 0
// to 1000, job 2 (2 CPUs) on node 1 to 200. Job 3 (1 CPU, exclusive, 300
// s, at 10) fits nowhere now (no node is idle): Slurm reserves node 1
// from 200; job 4 (1 CPU, 500 s, at 11) keeps off it, on node 0, and job
// 3 starts at 200. A plan of job 3's one CPU found it startable now on
// node 0 (the fewest free), the start was refused, and the reservation
// went on node 0: job 4 took node 1 and job 3 waited for job 4's end.
func TestNodePlanExclusiveWaits(t *testing.T) {
	j3 := nodeJob(3, 10, 1, 100, 300)
	j3.Demand.Exclusive = true
	jobs := []swf.Job{nodeJob(1, 0, 3, 1000, 1000), nodeJob(2, 0, 2, 200, 200), j3, nodeJob(4, 11, 1, 500, 500)}
	start, on := startsOn(t, Config{NamedNodes: true}, sched.Config{Nodes: []swf.Node{{Name: "n", Count: 2, Cores: 4}}}, jobs)
	if on[2].Node != 1 {
		t.Fatalf("job 2 on %+v; want node 1 (the case's premise)", on[2])
	}
	if start[3] < 200 || start[3] > 210 || on[3].Node != 1 || on[3].Cores != 4 {
		t.Errorf("job 3 at %d on %+v; want node 1 whole at 200", start[3], on[3])
	}
	if on[4].Node != 0 || start[4] > 100 {
		t.Errorf("job 4 at %d on %+v; want node 0 at a cycle before 100", start[4], on[4])
	}
}

// TestPartitionExclusive: a partition of OverSubscribe=EXCLUSIVE gives
// its jobs whole nodes under Run (ParseConf reads it; Shared=EXCLUSIVE,
// its name before 15.08, too), with the pool plan and the named-node one.
func TestPartitionExclusive(t *testing.T) {
	for _, conf := range []string{"OverSubscribe=EXCLUSIVE", "Shared=EXCLUSIVE"} {
		site, ignored, err := ParseConf(strings.NewReader("PartitionName=x Nodes=ALL Default=YES " + conf + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		if len(ignored) > 0 || len(site.Partitions) != 1 || !site.Partitions[0].Exclusive {
			t.Fatalf("%s: %+v, ignored %q; want an exclusive partition", conf, site.Partitions, ignored)
		}
		for _, named := range []bool{false, true} {
			site.NamedNodes = named
			jobs := []swf.Job{nodeJob(1, 0, 1, 100, 100), nodeJob(2, 0, 1, 100, 100)}
			start, on := startsOn(t, site, sched.Config{Nodes: []swf.Node{{Name: "n", Count: 1, Cores: 4}}}, jobs)
			if on[1].Cores != 4 || start[2] < 100 {
				t.Errorf("%s, named nodes %v: job 1 holds %+v, job 2 starts at %d; want the node whole, job 2 after job 1", conf, named, on[1], start[2])
			}
		}
	}
}

// TestPoolPlanExclusive: the plan of CPUs (without NamedNodes) gives an
// exclusive job's whole node back at its end. Three nodes of 4 CPUs: job
// 1 (1 CPU, exclusive) holds node 0 whole to 1000, job 2 (4 CPUs) node 1
// to 3000, job 3 (3 CPUs) node 2 to 1000: one CPU free. Job 4 (2 nodes,
// 8 CPUs, at 10) finds 8 CPUs at 1000 and reserves them; job 5 (1 CPU,
// 2500 s, at 11) would take one of them, and waits: job 4 starts at 1000.
// A plan giving back job 1's one CPU found job 4's CPUs only at 3000,
// backfilled job 5 on node 2 at once, and job 4 waited for its end.
func TestPoolPlanExclusive(t *testing.T) {
	j1 := nodeJob(1, 0, 1, 1000, 1000)
	j1.Demand.Exclusive = true
	j4 := nodeJob(4, 10, 8, 100, 1000)
	j4.Demand.Nodes = 2
	jobs := []swf.Job{j1, nodeJob(2, 0, 4, 3000, 3000), nodeJob(3, 0, 3, 1000, 1000), j4, nodeJob(5, 11, 1, 2500, 2500)}
	start, on := startsOn(t, Config{}, sched.Config{Nodes: []swf.Node{{Name: "n", Count: 3, Cores: 4}}}, jobs)
	if on[1].Node != 0 || on[1].Cores != 4 || on[3].Node != 2 {
		t.Fatalf("job 1 holds %+v, job 3 %+v; want node 0 whole, node 2 (the case's premise)", on[1], on[3])
	}
	if start[4] < 1000 || start[4] > 1010 || start[5] < start[4] {
		t.Errorf("job 4 at %d, job 5 at %d; want job 4 at 1000, job 5 after it", start[4], start[5])
	}
}

// TestNodePlanGPUsFollowMachine: random machines of nodes with GPUs and
// memory, one-node jobs asking whole GPUs, shares of one or whole nodes,
// some killed at their limit: the plan's record of which GPUs each job
// holds always sums to the machine's free GPUs (no cycle falls back to
// the pool plan for a difference: drift), the machine refuses no start
// the plan found room for (refused: a share the plan put on another GPU
// than the machine did), and every job's record is given back by the end.
func TestNodePlanGPUsFollowMachine(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		kinds := make([]swf.Node, rapid.IntRange(1, 3).Draw(rt, "kinds"))
		var maxC, maxG, maxM int64
		for i := range kinds {
			kinds[i] = swf.Node{Name: fmt.Sprint("k", i), Count: rapid.Int64Range(1, 3).Draw(rt, "count"),
				Cores: rapid.Int64Range(1, 8).Draw(rt, "cores"), GPUs: rapid.Int64Range(0, 4).Draw(rt, "gpus"),
				Memory: rapid.Int64Range(0, 4).Draw(rt, "mem") * 1000}
			maxC, maxG, maxM = max(maxC, kinds[i].Cores), max(maxG, kinds[i].GPUs), max(maxM, kinds[i].Memory)
		}
		var jobs []swf.Job
		at := int64(0)
		for i := range rapid.IntRange(1, 60).Draw(rt, "jobs") {
			at += rapid.Int64Range(0, 20).Draw(rt, "gap")
			limit := rapid.Int64Range(1, 300).Draw(rt, "limit")
			j := nodeJob(int64(i+1), at, rapid.Int64Range(1, maxC).Draw(rt, "cpus"), rapid.Int64Range(1, limit+50).Draw(rt, "run"), limit)
			j.User = rapid.Int64Range(1, 3).Draw(rt, "user")
			switch rapid.IntRange(0, 3).Draw(rt, "kind") {
			case 1:
				j.Demand.GPUs = rapid.SampledFrom([]int64{100, 250, 500, 700, 999}).Draw(rt, "share")
			case 2:
				j.Demand.GPUs = 1000 * rapid.Int64Range(1, max(maxG, 1)).Draw(rt, "whole")
			case 3:
				j.Demand.Exclusive = true
			}
			if maxG == 0 {
				j.Demand.GPUs = 0
			}
			if maxM > 0 {
				j.Demand.Memory = rapid.Int64Range(0, maxM).Draw(rt, "memory")
			}
			jobs = append(jobs, j)
		}
		p, err := New(Config{NamedNodes: true, BackfillInterval: rapid.Int64Range(1, 30).Draw(rt, "bf_interval")},
			sched.Config{Nodes: kinds})
		if err != nil {
			rt.Fatal(err)
		}
		if _, err := p.Run(context.Background(), jobs); err != nil {
			rt.Fatal(err)
		}
		drift, refused, ok := p.PlanMisses()
		if ok != (p.ns != nil) {
			rt.Fatalf("PlanMisses says the named-node plan ran: %v; it did: %v", ok, p.ns != nil)
		}
		if p.ns == nil {
			return // one node: no named-node plan
		}
		if drift != 0 || refused != 0 || drift != p.ns.drift || refused != p.ns.refused {
			rt.Fatalf("%d cycles found the plan's GPUs other than the machine's; %d starts the plan found room for refused (the plan's counts: %d, %d)", drift, refused, p.ns.drift, p.ns.refused)
		}
		if len(p.ns.held) != 0 || slices.ContainsFunc(p.ns.gpuUse, func(u int32) bool { return u != 0 }) {
			rt.Fatalf("after the run the plan still holds %d jobs' records, GPUs %v", len(p.ns.held), p.ns.gpuUse)
		}
	})
}

// TestExclusiveBilled: an exclusive job's user is charged its whole
// node's CPUs, as Slurm bills it (AllocCPUS, billing=the node's CPUs in
// examples/slurmcheck's recorded runs of site gres-excl). Two nodes of 4
// CPUs: user 1's job (1 CPU, exclusive) and user 2's (2 CPUs) run over
// the same second: user 1's usage is twice user 2's, not half, in both
// plans.
func TestExclusiveBilled(t *testing.T) {
	for _, named := range []bool{false, true} {
		j1 := nodeJob(1, 0, 1, 1000, 1000)
		j1.Demand.Exclusive = true
		j2 := nodeJob(2, 0, 2, 1000, 1000)
		j2.User = 2
		jobs := []swf.Job{j1, j2}
		p, err := New(Config{NamedNodes: named, WeightFairshare: 1000, EnforceLimits: true}, sched.Config{Nodes: []swf.Node{{Name: "n", Count: 2, Cores: 4}}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Run(context.Background(), jobs); err != nil {
			t.Fatal(err)
		}
		u1, u2 := p.tree.a[p.assocOf(&jobs[0])].usage, p.tree.a[p.assocOf(&jobs[1])].usage
		if u2 <= 0 || u1 != 2*u2 {
			t.Errorf("named nodes %v: usage %g of the exclusive job's user, %g of the other's; want twice", named, u1, u2)
		}
	}
}

// TestPoolPlanBeyondExclusive: the plan of CPUs passes over a job as
// starting beyond bf_window only after one asking no more of the plan's
// CPUs: an exclusive job's are its whole nodes', not those it asks. Two
// nodes of 4 CPUs, bf_window 600 s: job 1 fills node 0 and job 2 takes 2
// CPUs of node 1, both to 5000; job 3 (1 CPU, exclusive, 100 s) finds no
// whole node before 5000; job 4 (2 CPUs, 200 s) fits node 1's free CPUs
// and backfill starts it at its first cycle.
//
// Checked: comparing the CPUs asked (job 3's 1), the cycle passed job 4
// over as beyond the window, and it started at 5000.
func TestPoolPlanBeyondExclusive(t *testing.T) {
	j3 := nodeJob(3, 1, 1, 100, 100)
	j3.Demand.Exclusive = true
	jobs := []swf.Job{nodeJob(1, 0, 4, 5000, 5000), nodeJob(2, 0, 2, 5000, 5000), j3, nodeJob(4, 2, 2, 200, 200)}
	start, _ := startsOn(t, Config{BackfillWindow: 600}, sched.Config{Nodes: []swf.Node{{Name: "n", Count: 2, Cores: 4}}}, jobs)
	if start[3] < 5000 {
		t.Fatalf("job 3 started at %d; want at 5000 or later (the case's premise)", start[3])
	}
	if start[4] > 100 {
		t.Errorf("job 4 started at %d; want at backfill's first cycle (it fits now, before job 3)", start[4])
	}
}
