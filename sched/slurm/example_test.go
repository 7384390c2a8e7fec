package slurm_test

import (
	"context"
	"fmt"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/slurm"
	"github.com/batchq/batchq/swf"
)

// A site that weighs fair share over age: user 2 has used the machine
// (job 1), so of the two jobs waiting behind job 1, user 1's starts
// first although user 2's was submitted earlier. Jobs start when
// slurmctld's background loop runs the main scheduler: job 1 at 3,
// batch_sched_delay after slurmctld's start at 0.
func Example() {
	site := slurm.Config{WeightFairshare: 10000, WeightAge: 1000, CalcPeriod: 60}
	p, err := slurm.New(site, sched.Config{MachineSize: 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	job := func(id, submit, user, procs, run int64) swf.Job {
		j := swf.NewJob()
		j.ID, j.Submit, j.User, j.AllocProcs, j.RunTime, j.ReqTime = id, submit, user, procs, run, run
		return j
	}
	jobs := []swf.Job{
		job(1, 0, 2, 4, 3600),  // user 2 takes the machine for an hour
		job(2, 60, 2, 4, 600),  // user 2 again
		job(3, 120, 1, 4, 600), // user 1, later
	}
	res, err := p.Run(context.Background(), jobs)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res.Records {
		fmt.Printf("job %d starts at %d\n", r.Job.ID, r.Start)
	}
	// Output:
	// job 1 starts at 3
	// job 2 starts at 4203
	// job 3 starts at 3603
}
