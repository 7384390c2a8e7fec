package slurm

import "github.com/batchq/batchq/sched"

// consTres is how select/cons_tres picks the node of a job on one node
// (Slurm 22.05, src/plugins/select/cons_tres/job_test.c, _eval_nodes, with
// equal node weights and no required nodes): the nodes where the job
// fits form sets of consecutive nodes; the set with the fewest available
// CPUs wins (the first on ties: "tightest fit"), and in it the node with
// the fewest ("best fit single node", the first on ties). So a job goes
// neither on the first node it fits (first fit) nor on the fullest node
// of the machine (best fit) when the fullest lies in a larger run of
// nodes with room. The policy's default on a machine of nodes
// (sched.Config.Placement nil); it decides when a node comes free whole,
// so when a job asking a whole node starts. A job on several nodes, or
// spread over nodes, is placed by first fit (Slurm's _eval_nodes goes on
// from the chosen set there; not modelled). Slurm's backfill also keeps
// its starts off the nodes it reserved, as the model does only with
// Config.NamedNodes (its reservations are otherwise CPU counts).
//
// It was checked once against slurmctld's log of a live run of 8 nodes
// (commit 4659b56 gives the counts); that recording is not kept, so no
// test here reproduces them: TestConsTresPlacement pins the rule.
type consTres struct{}

// Choose implements sched.Placement.
func (consTres) Choose(j *sched.Job, fits []sched.NodeFree) int {
	if j.Demand().Nodes != 1 {
		return 0
	}
	return tightestRun(fits)
}

// tightestRun is cons_tres's choice among fits (by node number): in the
// run of consecutive nodes whose free CPUs sum lowest, the node with the
// fewest (each the first on ties).
func tightestRun(fits []sched.NodeFree) int {
	best, bestSum := 0, int64(-1)
	for i := 0; i < len(fits); {
		// fits[i:k] are consecutive nodes.
		k, sum := i, int64(0)
		for ; k < len(fits) && (k == i || fits[k].Node == fits[k-1].Node+1); k++ {
			sum += fits[k].Cores
		}
		if bestSum < 0 || sum < bestSum {
			// In the run, the node with the fewest (BestFit reads no job).
			best, bestSum = i+sched.BestFit.Choose(nil, fits[i:k]), sum
		}
		i = k
	}
	return best
}

// FirstFit tells sched that a job on several nodes, or spread over
// nodes, goes by first fit (Choose's 0 for each share) without a Choose
// a share: on a thousand nodes, building each share's candidates made
// the policy a hundred times its cost on one pool.
func (consTres) FirstFit(j *sched.Job) bool { return j.Demand().Nodes != 1 }

// Name implements sched.Placement.
func (consTres) Name() string { return "cons_tres" }
