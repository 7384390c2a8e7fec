package sanitize_test

import (
	"fmt"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

func ExampleDetectFlurries() {
	const hour = 3600
	// A quiet log: 10 users, one job each every 2 hours for 3 weeks,
	// varied sizes and estimates.
	var jobs []swf.Job
	for k := int64(0); k < 3*7*24/2; k++ {
		for u := int64(1); u <= 10; u++ {
			jobs = append(jobs, swf.Job{ID: k*10 + u, Submit: k*2*hour + u*60, RunTime: 600, AllocProcs: u, ReqTime: 600 * u, User: u})
		}
	}
	// User 42 submits 300 identical short jobs in 5 hours, 8 days in.
	for k := int64(0); k < 300; k++ {
		jobs = append(jobs, swf.Job{ID: 2521 + k, Submit: 8*24*hour + 5*hour*k/299, RunTime: 60, AllocProcs: 16, ReqTime: 300, User: 42})
	}
	cs, _ := sanitize.DetectFlurries(jobs, sanitize.FlurryConfig{})
	for _, c := range cs {
		fmt.Printf("user %d: %d jobs in %.0f h, %.0f%% of the jobs then, by %v\n", c.User, c.Jobs, float64(c.Span())/3600, 100*c.JobShare, c.By)
		fmt.Println(c.Filter)
	}
	// Output:
	// user 42: 300 jobs in 5 h, 91% of the jobs then, by jobs+procs
	// user=42 submit=691200..709200 size=16 reqtime=300 # flurry? 300 jobs of user 42, jobs 2521..2820
}
