package convert_test

import (
	"fmt"
	"strings"

	"github.com/batchq/batchq/swf/convert"
)

// A machine and its workload from Alibaba's GPU trace of 2023: the node
// list becomes kinds of node, each pod a job with its demand (thousandths
// of a core, MiB, thousandths of a GPU).
func ExampleAlibaba() {
	nodes := `sn,cpu_milli,memory_mib,gpu,model
openb-node-0000,64000,262144,2,P100
openb-node-0001,64000,262144,2,P100
openb-node-0002,32000,262144,0,
`
	pods := `name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time
openb-pod-0000,12000,16384,1,1000,,LS,Succeeded,0,5000,20
openb-pod-0001,6000,12288,1,460,P100|T4,BE,Failed,300,900,300
openb-pod-0002,4000,8192,0,0,,BE,Pending,400,700,
`
	kinds, _, err := convert.Nodes(strings.NewReader(nodes), convert.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, k := range kinds {
		fmt.Printf("%s: %d nodes, %d cores/1000, %d MiB, %d GPUs\n", k.Name, k.Count, k.Cores, k.Memory, k.GPUs)
	}
	res, err := convert.Alibaba(strings.NewReader(pods), convert.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for k, j := range res.Jobs {
		d := j.Demand
		fmt.Printf("%s: submit %d wait %d run %d status %d; cores %d memory %d GPUs %d models %q\n",
			res.IDs[k], j.Submit, j.Wait, j.RunTime, j.Status, d.Cores, d.Memory, d.GPUs, d.GPUModels)
	}
	fmt.Println(res.Report.States)
	// Output:
	// P100x2-64c-256Gi: 2 nodes, 64000 cores/1000, 262144 MiB, 2 GPUs
	// cpu-32c-256Gi: 1 nodes, 32000 cores/1000, 262144 MiB, 0 GPUs
	// openb-pod-0000: submit 0 wait 20 run 4980 status 1; cores 12000 memory 16384 GPUs 1000 models []
	// openb-pod-0001: submit 300 wait 0 run 600 status 0; cores 6000 memory 12288 GPUs 460 models ["P100" "T4"]
	// openb-pod-0002: submit 400 wait -1 run -1 status 5; cores 4000 memory 8192 GPUs 0 models []
	// map[Failed:1 Pending:1 Succeeded:1]
}
