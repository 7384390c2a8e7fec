package sched_test

import (
	"context"
	"fmt"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// lastFit is a user's placement: each share on the last node where it
// fits, keeping the first nodes free (say, for interactive jobs).
type lastFit struct{}

func (lastFit) Choose(_ *sched.Job, fits []sched.NodeFree) int { return len(fits) - 1 }
func (lastFit) Name() string                                   { return "last fit" }

// A Placement plugs into Config.Placement: here two one-node jobs on a
// machine of three nodes go on the last two.
func ExamplePlacement() {
	cfg := sched.Config{Nodes: []swf.Node{{Name: "n", Count: 3, Cores: 4}}, Placement: lastFit{}, KeepShares: true}
	var jobs []swf.Job
	for id := int64(1); id <= 2; id++ {
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.ReqTime, j.AllocProcs = id, 0, 10, 10, 4
		j.Demand = &swf.Demand{Nodes: 1}
		jobs = append(jobs, j)
	}
	res, err := sched.Run(context.Background(), cfg, jobs)
	if err != nil {
		fmt.Println(err)
		return
	}
	for k, r := range res.Records {
		fmt.Printf("job %d on node %d\n", r.Job.ID, res.Shares(k)[0].Node)
	}
	fmt.Println("check:", res.Check())
	// Output:
	// job 1 on node 2
	// job 2 on node 1
	// check: <nil>
}

// lastFitOne is lastFit for jobs on one node; it leaves the jobs on
// several nodes to sched's first fit through the optional FirstFit
// method, which spares a Choose call for every share of such a job.
type lastFitOne struct{ lastFit }

func (lastFitOne) FirstFit(j *sched.Job) bool { return j.Demand().Nodes != 1 }

// A Placement may also have FirstFit(j *Job) bool: the jobs it returns
// true for are placed by first fit, without calls of Choose. Here a
// one-node job goes on the last node, and a job on two nodes on the
// first two.
func ExamplePlacement_firstFit() {
	cfg := sched.Config{Nodes: []swf.Node{{Name: "n", Count: 3, Cores: 4}}, Placement: lastFitOne{}, KeepShares: true}
	var jobs []swf.Job
	for id, nodes := range []int64{1, 2} {
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.ReqTime, j.AllocProcs = int64(id+1), 0, 10, 10, 4*nodes
		j.Demand = &swf.Demand{Nodes: nodes, Cores: 4}
		jobs = append(jobs, j)
	}
	res, err := sched.Run(context.Background(), cfg, jobs)
	if err != nil {
		fmt.Println(err)
		return
	}
	for k, r := range res.Records {
		fmt.Printf("job %d on nodes", r.Job.ID)
		for _, sh := range res.Shares(k) {
			fmt.Printf(" %d", sh.Node)
		}
		fmt.Println()
	}
	// Output:
	// job 1 on nodes 2
	// job 2 on nodes 0 1
}
