package load_test

import (
	"fmt"

	"github.com/batchq/batchq/sched/load"
	"github.com/batchq/batchq/swf"
)

// A log of two one-processor jobs on a machine of one processor, each
// running 50 s of every 100 s, scaled to arrive twice as often.
func Example() {
	var jobs []swf.Job
	for i := range int64(3) {
		j := swf.NewJob()
		j.ID, j.Submit, j.Wait, j.RunTime, j.AllocProcs = i+1, 100*i, 0, 50, 1
		jobs = append(jobs, j)
	}
	rho, skipped := load.Offered(jobs, 1)
	fmt.Printf("offered load %.2f (%d skipped)\n", rho, skipped)
	faster, err := load.Scale(jobs, 0.5)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, j := range faster {
		fmt.Print(j.Submit, " ")
	}
	fmt.Println()
	// Output:
	// offered load 0.50 (0 skipped)
	// 0 50 100
}
