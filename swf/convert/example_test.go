package convert_test

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/swf/convert"
)

func Example() {
	// Three jobs as `sacct --parsable2 --format JobID,JobIDRaw,...,State,...`
	// prints them (fewer columns here): one that ran to its 1-minute limit,
	// a step of it, one cancelled while pending, and one still running.
	log := `JobID|JobIDRaw|User|Partition|State|Submit|Start|End|TimelimitRaw|AllocCPUS|ReqCPUS
41|41|alice|short|TIMEOUT|2024-03-01T08:00:00|2024-03-01T08:00:05|2024-03-01T08:01:10|1|4|4
41.batch|41.batch||||2024-03-01T08:00:05|2024-03-01T08:00:05|2024-03-01T08:01:10||4|4
42|42|bob|long|CANCELLED by 1001|2024-03-01T08:00:30|None|2024-03-01T08:02:00|10|0|8
43|43|alice|short|RUNNING|2024-03-01T08:01:00|2024-03-01T08:01:10|Unknown|2|2|2
`
	res, err := convert.Sacct(strings.NewReader(log), convert.Options{HideNames: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	for k, j := range res.Jobs {
		line, _ := j.AppendText(nil)
		fmt.Printf("%s: %s\n", res.IDs[k], line)
	}
	r := res.Report
	fmt.Println("records", r.Records, "jobs", r.Jobs, "steps", r.Steps, "skipped", r.Skipped)
	fmt.Println("anomalies", r.Anomalies)
	res.Header.Note = nil // for a short example
	swf.WriteAll(os.Stdout, res.Header, nil)
	// Output:
	// 41: 1 0 5 65 4 -1 -1 4 60 -1 0 1 -1 -1 1 -1 -1 -1
	// 42: 2 30 -1 -1 -1 -1 -1 8 600 -1 5 2 -1 -1 2 -1 -1 -1
	// records 4 jobs 2 steps 1 skipped map[not finished at dump (RUNNING):1]
	// anomalies map[killed at its time limit:1]
	// ; Version: 2.2
	// ; Conversion: batchq swf/convert from a Slurm sacct --parsable2
	// ; MaxJobs: 2
	// ; MaxRecords: 2
	// ; UnixStartTime: 1709280000
	// ; TimeZoneString: UTC
	// ; StartTime: Fri Mar 01 08:00:00 UTC 2024
	// ; EndTime: Fri Mar 01 08:02:00 UTC 2024
	// ; MaxQueues: 2
	// ; Queue: 1 short
	// ; Queue: 2 long
}

// GPUs, memory and nodes from sacct's ReqTRES become the job's Demand,
// written on the demand line before its job line.
func Example_demand() {
	log := `JobID|User|Partition|State|Submit|Start|End|TimelimitRaw|AllocCPUS|ReqCPUS|ReqTRES
51|alice|gpu|COMPLETED|1709280000|1709280060|1709283660|120|16|16|billing=16,cpu=16,gres/gpu:a100=8,gres/gpu=8,mem=256G,node=2
52|bob|gpu|COMPLETED|1709280100|1709280160|1709280760|30|6|6|cpu=6,gres/gpu=3,mem=12000M,node=2
`
	res, err := convert.Sacct(strings.NewReader(log), convert.Options{HideNames: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	swf.WriteAll(os.Stdout, nil, res.Jobs)
	fmt.Println("demands", res.Report.Demands, "anomalies", res.Report.Anomalies)
	// Output:
	// ;= nodes=2 cores=8 mem=131072 gpus=4000 models=a100
	// 1 0 60 3600 16 -1 -1 16 7200 16777216 1 1 -1 -1 1 -1 -1 -1
	// ;= nodes=2 cores=3 mem=6000 gpus=2000
	// 2 100 60 600 6 -1 -1 6 1800 2048000 1 2 -1 -1 1 -1 -1 -1
	// demands 2 anomalies map[demand: GPUs not a multiple of the nodes, per node rounded up:1]
}

func ExampleQueueSnapshot() {
	// What `scontrol show job -o` prints (fields cut short here): one job
	// running for 9 minutes, one array of three tasks waiting, one job that
	// ended a minute ago.
	out := `JobId=41 JobName=relax UserId=alice(1000) Priority=1000 Account=physics JobState=RUNNING Reason=None RunTime=00:09:00 TimeLimit=01:00:00 SubmitTime=2024-03-01T08:00:00 StartTime=2024-03-01T08:01:00 Partition=short NumNodes=1 NumCPUs=8
JobId=42 ArrayJobId=42 ArrayTaskId=0-2 JobName=sweep UserId=bob(1001) Priority=900 Account=chem JobState=PENDING Reason=Resources RunTime=00:00:00 TimeLimit=00:10:00 SubmitTime=2024-03-01T08:05:00 StartTime=2024-03-01T08:30:00 Partition=short NumNodes=1 NumCPUs=4
JobId=40 JobName=done UserId=alice(1000) Priority=1000 Account=physics JobState=COMPLETED Reason=None RunTime=00:05:00 TimeLimit=00:10:00 SubmitTime=2024-03-01T07:50:00 StartTime=2024-03-01T08:04:00 Partition=short NumNodes=1 NumCPUs=2
`
	s, err := convert.QueueSnapshot(strings.NewReader(out), convert.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("snapshot at", time.Unix(s.Time, 0).UTC().Format(time.RFC3339))
	for _, j := range s.Running {
		fmt.Printf("running %s: %d CPUs for %d s of its %d s\n", j.ID, j.CPUs, j.Elapsed, j.TimeLimit)
	}
	for _, j := range s.Waiting {
		fmt.Printf("waiting %s: %d CPUs, priority %d, Slurm expects it at %s\n", j.ID, j.CPUs, j.Priority,
			time.Unix(j.Start, 0).UTC().Format("15:04"))
	}
	fmt.Println("skipped", s.Report.Skipped)
	// Output:
	// snapshot at 2024-03-01T08:10:00Z
	// running 41: 8 CPUs for 540 s of its 3600 s
	// waiting 42_0: 4 CPUs, priority 900, Slurm expects it at 08:30
	// waiting 42_1: 4 CPUs, priority 900, Slurm expects it at 08:30
	// waiting 42_2: 4 CPUs, priority 900, Slurm expects it at 08:30
	// skipped map[finished, still listed by the controller (COMPLETED):1]
}
