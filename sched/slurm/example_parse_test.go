package slurm_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/batchq/batchq/sched/slurm"
)

// A site's slurm.conf read into a Config, with what the model leaves out.
func ExampleParseConf() {
	conf := `
ClusterName=hydra
PriorityType=priority/multifactor
PriorityWeightAge=1000
PriorityWeightFairshare=10000
PriorityDecayHalfLife=14-0   # two weeks
SchedulerParameters=bf_interval=60,bf_window=2880,\
bf_continue,default_queue_depth=200
PartitionName=DEFAULT MaxTime=2-00:00:00 State=UP
PartitionName=debug Nodes=cn[01-04] MaxTime=30 Default=YES
PartitionName=batch Nodes=cn[05-64],big[1-2] MaxNodes=16 AllowAccounts=physics
`
	c, ignored, err := slurm.ParseConf(strings.NewReader(conf))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("weights: age", c.WeightAge, "fairshare", c.WeightFairshare, "half-life", c.DecayHalfLife, "s")
	fmt.Println("backfill every", c.BackfillInterval, "s over", c.BackfillWindow, "s, continue:", c.BackfillContinue)
	for _, p := range c.Partitions {
		fmt.Printf("%s: %d nodes (%s..%s), MaxTime %d s, MaxNodes %d, default %v\n",
			p.Name, len(p.Nodes), p.Nodes[0], p.Nodes[len(p.Nodes)-1], p.MaxTime, p.MaxNodes, p.Default)
	}
	for _, s := range ignored {
		fmt.Println(s)
	}
	// Output:
	// weights: age 1000 fairshare 10000 half-life 1209600 s
	// backfill every 60 s over 172800 s, continue: true
	// debug: 4 nodes (cn01..cn04), MaxTime 1800 s, MaxNodes 0, default true
	// batch: 62 nodes (cn05..big2), MaxTime 172800 s, MaxNodes 16, default false
	// ignored: ClusterName (line 2)
	// ignored: SchedulerParameters=default_queue_depth (line 7)
	// ignored: PartitionName AllowAccounts (line 11)
}
