package varq_test

import (
	"fmt"

	"github.com/batchq/batchq/varq"
)

// A reservation of 64 nodes for 2 h starting 12 h from now, on a queue
// whose forecaster says short jobs start within an hour with probability
// 0.9 and long (padded) jobs rarely do.
func Example() {
	f := varq.ForecasterFunc(func(nodes int, walltime, within int64) (float64, bool) {
		switch {
		case walltime <= 4*3600 && within >= 3600:
			return 0.9, true
		case walltime <= 4*3600:
			return 0.4, true
		default:
			return 0.2, true
		}
	})
	now := int64(0)
	r := varq.Request{Nodes: 64, Walltime: 7200, Start: now + 12*3600}
	traj, err := varq.Trajectory(f, r, now, varq.DefaultStep)
	if err != nil {
		fmt.Println(err)
		return
	}
	p := traj.PlanLatest(r, 0.75)
	req, extra := p.Cost()
	fmt.Println(len(traj), "points")
	fmt.Printf("wait %d s, submit %d nodes × %d s, p=%.2f\n", p.Submit-now, p.Nodes, p.Walltime, p.Prob)
	fmt.Printf("required %d node-s, worst-case extra %d node-s\n", req, extra)
	fmt.Println(p)
	fmt.Println(traj.PlanLatest(r, 0.95))
	// Output:
	// 1440 points
	// wait 39600 s, submit 64 nodes × 10800 s, p=0.90
	// required 460800 node-s, worst-case extra 230400 node-s
	// submit 1h before the start: 64 nodes × 3h (2h + 1h padding), p=0.90, worst-case extra 230400 node-s
	// NOT_POSSIBLE
}
