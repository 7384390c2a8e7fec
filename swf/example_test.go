package swf_test

import (
	"fmt"
	"strings"

	"github.com/batchq/batchq/swf"
)

func Example() {
	trace := `; Version: 2.2
; MaxNodes: 338 (batch partition; 512 total)
    1        0 588530    937  306 142.00    -1   -1  35100    -1  1  97  -1 307  3 -1 -1 -1
    2   164472 356587     75   17   2.00    -1   -1    300    -1  1  81  -1 195  3 -1 -1 -1
`
	r := swf.NewReader(strings.NewReader(trace))
	h, _ := r.Header()
	size, _ := h.MachineSize()
	fmt.Println("machine:", size, "processors")
	for job, err := range r.All() {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("job %d: %d procs, ran %d s of %d s requested, waited %d s\n",
			job.ID, job.Size(), job.RunTime, job.ReqTime, job.Wait)
	}
	// Output:
	// machine: 338 processors
	// job 1: 306 procs, ran 937 s of 35100 s requested, waited 588530 s
	// job 2: 17 procs, ran 75 s of 300 s requested, waited 356587 s
}
