package schedtest_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/schedtest"
	"github.com/batchq/batchq/swf"
)

// largestFirst starts the largest waiting jobs that fit: a policy of a
// user's own.
type largestFirst struct{}

func (largestFirst) Schedule(p *sched.Pass) {
	for p.Free() > 0 {
		var best *sched.Job
		for j := range p.Waiting() {
			if j.Size() <= p.Free() && (best == nil || j.Size() > best.Size()) {
				best = j
			}
		}
		if best == nil {
			return
		}
		p.Start(best)
	}
}

// checkLargestFirst is the policy's conformance test, one line: a test of
// the user's calls it (func TestLargestFirst(t *testing.T) {
// checkLargestFirst(t) }; this package's largestfirst_test.go does). It
// runs the policy on random workloads and fails t on any break of the
// contract of sched.Scheduler.
func checkLargestFirst(t *testing.T) {
	schedtest.Scheduler(t, func() sched.Scheduler { return largestFirst{} })
}

// The policy that checkLargestFirst checks, run on three jobs. (This file
// holds no test, so that godoc shows it whole: the policy, its
// conformance test and this run.)
func Example() {
	job := func(id, submit, size int64) swf.Job {
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.AllocProcs, j.ReqProcs, j.ReqTime = id, submit, 100, size, size, 100
		return j
	}
	res, err := sched.Run(context.Background(), sched.Config{MachineSize: 8, Scheduler: largestFirst{}},
		[]swf.Job{job(1, 0, 8), job(2, 10, 2), job(3, 20, 6)})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res.Records {
		fmt.Println(r.Job.ID, r.Start)
	}
	// Output:
	// 1 0
	// 2 100
	// 3 100
}
