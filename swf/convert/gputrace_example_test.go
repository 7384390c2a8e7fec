package convert_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/batchq/batchq/swf/convert"
)

// A Helios job table (times without a zone: Options.Location) becomes
// jobs of GPUs, each with its demand per node; the same function reads
// Acme's tables and Philly's JSON log, told from the input.
func ExampleGPUTrace() {
	log := `job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration,queue
41,uA,vcX,16,96,2,COMPLETED,2020-07-01 09:00:00,2020-07-01 09:10:00,2020-07-01 10:10:00,3600,600
42,uB,vcX,0,8,1,FAILED,2020-07-01 09:01:00,2020-07-01 09:01:00,2020-07-01 09:02:00,60,0
43,uB,vcY,1,4,1,CANCELLED,2020-07-01 09:02:00,2020-07-01 09:05:00,2020-07-01 09:05:00,0,180
`
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := convert.GPUTrace(strings.NewReader(log), convert.Options{Location: shanghai})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Report.Format, res.Header.UnixStartTime)
	for k, j := range res.Jobs {
		d := j.Demand
		fmt.Printf("%s: submit %d wait %d run %d GPUs %d status %d; nodes %d cores %d GPUs/1000 %d\n",
			res.IDs[k], j.Submit, j.Wait, j.RunTime, j.ReqProcs, j.Status, d.Nodes, d.Cores, d.GPUs)
	}
	// Output:
	// helios 1593565200
	// 41: submit 0 wait 600 run 3600 GPUs 16 status 1; nodes 2 cores 48 GPUs/1000 8000
	// 42: submit 60 wait 0 run 60 GPUs 0 status 0; nodes 1 cores 8 GPUs/1000 0
	// 43: submit 120 wait -1 run -1 GPUs 1 status 5; nodes 1 cores 4 GPUs/1000 1000
}
