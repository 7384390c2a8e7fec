package slurm_test

import (
	"context"
	"strings"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/slurm"
	"github.com/batchq/batchq/swf"
)

// TestPartitionNodesConfine: a partition over some nodes runs its jobs
// there only, as Slurm's does, with the nodes named by slurm.conf's
// NodeName lines. Four nodes of 4 CPUs; partition a on n1–n2, b on n3–n4.
// Three 4-CPU jobs of a at 0: two start on n1 and n2, the third waits for
// one of them (100 s) although n3 and n4 are free; a job of b at 10
// starts at once on n3 or n4 (b shares no node with a, so a's failure
// does not stop it). Backfill plans on the named nodes (PlanMisses ok)
// and never plans a start the machine refuses (a plan over every node put
// the third job on n3, and the machine refused it).
//
// Checked: without the partitions' resources (confine.go's Run lines)
// the third job started at 0 on n3; without nodeFit's mask the plan
// found n3 free, refused counted its starts; with the old usesNodePlan,
// PlanMisses was not ok (the pool plan served).
func TestPartitionNodesConfine(t *testing.T) {
	conf := `NodeName=n[1-4] CPUs=4
PartitionName=a Nodes=n[1-2] Default=YES
PartitionName=b Nodes=n[3-4]
SchedulerParameters=bf_interval=5,bf_resolution=10
`
	site, _, err := slurm.ParseConf(strings.NewReader(conf))
	if err != nil {
		t.Fatal(err)
	}
	site.NamedNodes = true
	site.PartitionNames = map[int64]string{1: "a", 2: "b"}
	p, err := slurm.New(site, sched.Config{Nodes: []swf.Node{{Name: "n", Count: 4, Cores: 4}}, KeepShares: true})
	if err != nil {
		t.Fatal(err)
	}
	job := func(id, submit, queue, run int64) swf.Job {
		j := swf.NewJob()
		j.ID, j.Submit, j.Queue, j.AllocProcs, j.ReqProcs, j.RunTime, j.ReqTime = id, submit, queue, 4, 4, run, 200
		j.Demand = &swf.Demand{Nodes: 1}
		return j
	}
	jobs := []swf.Job{job(1, 0, 1, 100), job(2, 0, 1, 100), job(3, 0, 1, 100), job(4, 10, 2, 50)}
	res, err := p.Run(context.Background(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	for k, r := range res.Records {
		sh := res.Shares(k)
		if len(sh) != 1 {
			t.Fatalf("job %d: on %d nodes; want 1", r.Job.ID, len(sh))
		}
		want := []int{0, 1}
		if r.Job.Queue == 2 {
			want = []int{2, 3}
		}
		if sh[0].Node != want[0] && sh[0].Node != want[1] {
			t.Errorf("job %d of partition %d ran on node %d; want one of %v", r.Job.ID, r.Job.Queue, sh[0].Node, want)
		}
		switch r.Job.ID {
		case 3:
			if r.Start < 100 {
				t.Errorf("job 3 started at %d, before a node of partition a was free (100)", r.Start)
			}
		case 4:
			if r.Start > 20 {
				t.Errorf("job 4 started at %d; want at once (its partition's nodes are free)", r.Start)
			}
		}
	}
	drift, refused, ok := p.PlanMisses()
	if !ok || drift != 0 || refused != 0 {
		t.Errorf("PlanMisses: drift %d, refused %d, named nodes %v; want 0, 0, true", drift, refused, ok)
	}
}

// TestNodeNamesChecked: NodeNames that do not number the machine's nodes
// are refused by New where a partition runs on some of them only (else
// they confine nothing and are let be); a partition's node not among them by Validate;
// ParseConf leaves NodeNames empty, with a note, where a partition names
// a node no NodeName line does (its line in an Include'd file).
func TestNodeNamesChecked(t *testing.T) {
	machine := sched.Config{Nodes: []swf.Node{{Name: "n", Count: 4, Cores: 4}}}
	sub := []slurm.Partition{{Name: "a", Nodes: []string{"n1"}}, {Name: "b", Nodes: []string{"n1", "n2"}}}
	if _, err := slurm.New(slurm.Config{NodeNames: []string{"n1", "n2"}, Partitions: sub}, machine); err == nil || !strings.Contains(err.Error(), "2 NodeNames for a machine of 4") {
		t.Errorf("2 names for 4 nodes, a partition on one: %v", err)
	}
	// Partitions that span every named node confine nothing: a nodes
	// file of another size (a what-if on a bigger machine) runs, as it
	// did before NodeNames.
	if _, err := slurm.New(slurm.Config{NodeNames: []string{"n1", "n2"}, Partitions: sub[1:]}, machine); err != nil {
		t.Errorf("2 names for 4 nodes, every partition on both: %v", err)
	}
	c := slurm.Config{NodeNames: []string{"n1", "n2"}, Partitions: []slurm.Partition{{Name: "a", Nodes: []string{"n3"}}}}
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), `node "n3" is not among NodeNames`) {
		t.Errorf("a partition's node not named: %v", err)
	}
	if err := (slurm.Config{NodeNames: []string{"n1", "n1"}}).Validate(); err == nil || !strings.Contains(err.Error(), "named twice") {
		t.Errorf("a name twice: %v", err)
	}
	site, notes, err := slurm.ParseConf(strings.NewReader("NodeName=n[1-2]\nPartitionName=a Nodes=n[1-3]\n"))
	if err != nil || site.NodeNames != nil {
		t.Fatalf("ParseConf: %v, NodeNames %v; want none", err, site.NodeNames)
	}
	if !strings.Contains(strings.Join(notes, "\n"), "n3 is on no NodeName line") {
		t.Errorf("no note of the unnamed node in %q", notes)
	}
}

// TestFailedPartitionNodes: in a main scheduler run, a job that does not
// fit fails its own partition only, and takes that partition's nodes out
// of the run (_schedule's _failed_partition and avail_node_bitmap): a
// partition that shares some nodes with it runs on its others. Three
// nodes of 8 CPUs, a on n1–n2, b on n2–n3, no backfill (sched/builtin):
// jobs 1 (8 CPUs) and 2 (4) of a take n1 and half of n2; job 3 of a (8)
// fails; job 4 of b (4 CPUs) starts in the same run on n3, not on n2's free half,
// which cons_tres's tightest fit would choose were n2 still in the run.
//
// Checked: with blocked's old rule (a partition sharing a node with a
// failed one is passed over) job 4 waited for job 1's end (100); without
// the mask of the failed partition's nodes it started on n2.
func TestFailedPartitionNodes(t *testing.T) {
	conf := `NodeName=n[1-3] CPUs=8
SchedulerType=sched/builtin
PartitionName=a Nodes=n[1-2] Default=YES
PartitionName=b Nodes=n[2-3]
`
	site, _, err := slurm.ParseConf(strings.NewReader(conf))
	if err != nil {
		t.Fatal(err)
	}
	site.PartitionNames = map[int64]string{1: "a", 2: "b"}
	p, err := slurm.New(site, sched.Config{Nodes: []swf.Node{{Name: "n", Count: 3, Cores: 8}}, KeepShares: true})
	if err != nil {
		t.Fatal(err)
	}
	job := func(id, queue, cpus int64) swf.Job {
		j := swf.NewJob()
		j.ID, j.Submit, j.Queue, j.AllocProcs, j.ReqProcs, j.RunTime, j.ReqTime = id, 0, queue, cpus, cpus, 100, 200
		j.Demand = &swf.Demand{Nodes: 1}
		return j
	}
	res, err := p.Run(context.Background(), []swf.Job{job(1, 1, 8), job(2, 1, 4), job(3, 1, 8), job(4, 2, 4)})
	if err != nil {
		t.Fatal(err)
	}
	first := res.Records[0].Start // the run after the submissions (batch_sched_delay)
	for k, r := range res.Records {
		if r.Job.ID != 4 {
			continue
		}
		if sh := res.Shares(k); r.Start != first || len(sh) != 1 || sh[0].Node != 2 {
			t.Errorf("job 4 of b started at %d on %v; want at %d (job 1's start) on node 2 (n3)", r.Start, sh, first)
		}
	}
}

// TestFailedPartitionTooFewNodes: in a main scheduler run, a job whose
// partition keeps fewer nodes outside the failed partitions' than it
// asks fails its partition too (_schedule: min_nodes above the overlap
// of avail_node_bitmap and its partition's nodes, "fail_by_part = true;
// goto fail_this_part"), so a later, smaller job of that partition waits.
// Three nodes of 8 CPUs, a on n1–n2, b on n2–n3, no backfill: job 1 of b
// (2 nodes) takes n2 and n3; job 2 of b fails, taking n2 and n3 out of
// the run; job 3 of a (2 nodes) has n1 only: a fails; job 4 of a (1 node)
// is not tried, although n1 is free, until a later run.
//
// Checked: with room's old rule (the job passed over, its partition not
// failed) job 4 started on n1 in the first run.
func TestFailedPartitionTooFewNodes(t *testing.T) {
	conf := `NodeName=n[1-3] CPUs=8
SchedulerType=sched/builtin
PartitionName=a Nodes=n[1-2] Default=YES
PartitionName=b Nodes=n[2-3]
`
	site, _, err := slurm.ParseConf(strings.NewReader(conf))
	if err != nil {
		t.Fatal(err)
	}
	site.PartitionNames = map[int64]string{1: "a", 2: "b"}
	p, err := slurm.New(site, sched.Config{Nodes: []swf.Node{{Name: "n", Count: 3, Cores: 8}}, KeepShares: true})
	if err != nil {
		t.Fatal(err)
	}
	job := func(id, queue, cpus, nodes int64) swf.Job {
		j := swf.NewJob()
		j.ID, j.Submit, j.Queue, j.AllocProcs, j.ReqProcs, j.RunTime, j.ReqTime = id, 0, queue, cpus, cpus, 100, 200
		j.Demand = &swf.Demand{Nodes: nodes}
		return j
	}
	res, err := p.Run(context.Background(), []swf.Job{job(1, 2, 16, 2), job(2, 2, 8, 1), job(3, 1, 16, 2), job(4, 1, 8, 1)})
	if err != nil {
		t.Fatal(err)
	}
	start := map[int64]int64{}
	for _, r := range res.Records {
		start[r.Job.ID] = r.Start
	}
	if start[4] <= start[1] {
		t.Errorf("job 4 of a started at %d, in job 1's run (%d); want later: job 3 failed partition a", start[4], start[1])
	}
}
