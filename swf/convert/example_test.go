package convert_test

import (
	"fmt"
	"os"
	"strings"

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
