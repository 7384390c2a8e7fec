package slurm_test

import (
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/slurm"
	"github.com/batchq/batchq/swf"
)

// one is j asking one node (sbatch -c: one task of j's CPUs).
func one(j swf.Job) swf.Job {
	j.Demand = &swf.Demand{Nodes: 1}
	return j
}

// TestConsTresPlacement: on a machine of nodes a job on one node goes
// where select/cons_tres's _eval_nodes puts it. Four nodes of 8 CPUs: jobs
// 1-4 (8, 6, 8 and 5 CPUs, one node each) fill node 0, leave 2 free on
// node 1, fill node 2 and leave 3 on node 3; job 1 ends at 5, so when job
// 5 (2 CPUs) comes the nodes it fits are 0 (8 free), 1 (2) and 3 (3).
// First fit takes node 0, best fit node 1; cons_tres takes the run of
// consecutive nodes with the fewest CPUs, {3} (3 against 10 for {0, 1}),
// so node 3. A job spread over nodes is placed by first fit.
func TestConsTresPlacement(t *testing.T) {
	jobs := []swf.Job{one(mkJob(1, 0, 1, 8, 5, 100)), one(mkJob(2, 0, 1, 6, 1000, 1000)), one(mkJob(3, 0, 1, 8, 1000, 1000)),
		one(mkJob(4, 0, 1, 5, 1000, 1000)), one(mkJob(5, 20, 1, 2, 1000, 1000))}
	machine := sched.Config{Nodes: []swf.Node{{Name: "n", Count: 4, Cores: 8}}, KeepShares: true}
	res, _ := run(t, slurm.Config{}, machine, jobs)
	want := map[int64]int{1: 0, 2: 1, 3: 2, 4: 3, 5: 3}
	for k, r := range res.Records {
		sh := res.Shares(k)
		if len(sh) != 1 || sh[0].Node != want[r.Job.ID] {
			t.Errorf("job %d on %+v; want node %d", r.Job.ID, sh, want[r.Job.ID])
		}
	}
	// A spread job of 2 CPUs (no Demand) goes on the first node with room.
	jobs[4].Demand = nil
	res, _ = run(t, slurm.Config{}, machine, jobs)
	for k, r := range res.Records {
		if sh := res.Shares(k); r.Job.ID == 5 && (len(sh) != 1 || sh[0].Node != 0) {
			t.Errorf("spread job 5 on %+v; want node 0", sh)
		}
	}
	// A site's own Placement is kept.
	machine.Placement = sched.BestFit
	jobs[4].Demand = &swf.Demand{Nodes: 1}
	res, _ = run(t, slurm.Config{}, machine, jobs)
	for k, r := range res.Records {
		if sh := res.Shares(k); r.Job.ID == 5 && (len(sh) != 1 || sh[0].Node != 1) {
			t.Errorf("best fit: job 5 on %+v; want node 1", sh)
		}
	}
}

// TestFragmentedPlan: a job whose CPUs are free but on no one node is
// planned, as Slurm's backfill plans it on named nodes, when a node comes
// free enough (running jobs ending at their limits), not at the next
// second. Three nodes of 8 CPUs hold 6 each from 3 (jobs 1-3, job 2 until
// its limit 100 s later); job 4 asks 6 CPUs on one node: 6 are free, 2 on
// each node, so it is planned at 103, where job 2's node comes free. Job
// 5 (2 CPUs for at most 50 s) ends before then and starts at the first
// backfill cycle (30); with job 4 planned at the next second, holding a
// node's CPUs from there, it would wait for job 4.
func TestFragmentedPlan(t *testing.T) {
	jobs := []swf.Job{one(mkJob(1, 0, 1, 6, 1000, 1000)), one(mkJob(2, 0, 1, 6, 100, 100)), one(mkJob(3, 0, 1, 6, 1000, 1000)),
		one(mkJob(4, 1, 1, 6, 10, 100)), one(mkJob(5, 2, 1, 2, 10, 50))}
	res, _ := run(t, slurm.Config{}, sched.Config{Nodes: []swf.Node{{Name: "n", Count: 3, Cores: 8}}, KeepShares: true}, jobs)
	if s := starts(res); s[4] != 103 || s[5] != 30 {
		t.Errorf("jobs 4, 5 start at %d, %d; want 103, 30", s[4], s[5])
	}
}

// TestConsTresRun: in the run of consecutive nodes it chooses, cons_tres
// puts a job on one node on the node with the fewest free CPUs, not the
// run's first. Five nodes of 8 CPUs: jobs 1-5 (8, 6, 8, 8 and 8 CPUs)
// take nodes 0-4; jobs 1, 4 and 5 end at 8, so when job 6 (2 CPUs) comes
// the nodes it fits are 0 (8 free), 1 (2), 3 (8) and 4 (8): the runs
// {0, 1} (10) and {3, 4} (16); the first is the tighter, and in it node 1
// the fullest (first fit would take node 0).
func TestConsTresRun(t *testing.T) {
	jobs := []swf.Job{one(mkJob(1, 0, 1, 8, 5, 100)), one(mkJob(2, 0, 1, 6, 1000, 1000)), one(mkJob(3, 0, 1, 8, 1000, 1000)),
		one(mkJob(4, 0, 1, 8, 5, 100)), one(mkJob(5, 0, 1, 8, 5, 100)), one(mkJob(6, 20, 1, 2, 1000, 1000))}
	res, _ := run(t, slurm.Config{}, sched.Config{Nodes: []swf.Node{{Name: "n", Count: 5, Cores: 8}}, KeepShares: true}, jobs)
	want := map[int64]int{1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 6: 1}
	for k, r := range res.Records {
		if sh := res.Shares(k); len(sh) != 1 || sh[0].Node != want[r.Job.ID] {
			t.Errorf("job %d on %+v; want node %d", r.Job.ID, sh, want[r.Job.ID])
		}
	}
}
