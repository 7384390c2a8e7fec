package convert

import (
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// TestSacctArrayCancelledPending: scancel of an array whose tasks had not
// started leaves sacct one record for them all, "7_[1-3,5%2]" CANCELLED
// (the tasks that ran, 7_4, have their own). Each of those tasks is a job
// submitted and cancelled before its start (status 5, wait and run time
// -1), as the other readers write one; they were one record skipped as
// "pending array tasks", which they were not. Pending ranges are still
// skipped so, a range past 65,536 tasks is skipped, counted, and
// Records = Jobs + Steps + Requeued + Σ Skipped holds (the record counts
// once per task). sacct --json's record of the same (array.task "1-3") too.
func TestSacctArrayCancelledPending(t *testing.T) {
	in := "JobID|JobIDRaw|User|State|Submit|Start|End|AllocCPUS|ReqCPUS|TimelimitRaw\n" +
		"7_[1-3,5%2]|7|u|CANCELLED by 5|2024-03-01T08:00:00|None|2024-03-01T08:10:00|0|4|60\n" +
		"7_4|9|u|COMPLETED|2024-03-01T08:00:00|2024-03-01T08:01:00|2024-03-01T08:02:00|4|4|60\n" +
		"8_[1-99999999]|8|u|CANCELLED|2024-03-01T08:00:00|None|2024-03-01T08:10:00|0|4|60\n" +
		"11_[1-2]|11|u|PENDING|2024-03-01T08:00:00|None|None|0|4|60\n"
	res, err := Sacct(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"7_1", "7_2", "7_3", "7_4", "7_5"}; !slices.Equal(res.IDs, want) {
		t.Fatalf("ids %v, want %v", res.IDs, want)
	}
	for i, j := range res.Jobs {
		if res.IDs[i] == "7_4" {
			continue
		}
		if j.Status != swf.StatusCancelled || j.Wait != -1 || j.RunTime != -1 || j.ReqProcs != 4 || j.ReqTime != 3600 {
			t.Errorf("%s: %+v, want cancelled before its start, 4 CPUs for an hour asked", res.IDs[i], j)
		}
	}
	r := res.Report
	checkCounts(t, "skipped", r.Skipped, map[string]int{skipArrayRange: 1, skipArrayOver: 1})
	if r.Anomalies[noteArrayTask] != 4 {
		t.Errorf("anomalies %v, want 4 %q", r.Anomalies, noteArrayTask)
	}
	if sum := r.Jobs + r.Steps + r.Requeued + r.Skipped[skipArrayRange] + r.Skipped[skipArrayOver]; sum != r.Records {
		t.Errorf("%d records, %d accounted for", r.Records, sum)
	}

	js := `{"jobs":[{"job_id":12,"user":"u","array":{"job_id":12,"task_id":{"set":false,"infinite":false,"number":0},"task":"1-3"},` +
		`"state":{"current":["CANCELLED"]},"time":{"submission":1709280000,"start":0,"end":1709280600,"elapsed":0},"required":{"CPUs":2}}]}`
	res, err = SacctJSON(strings.NewReader(js), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"12_1", "12_2", "12_3"}; !slices.Equal(res.IDs, want) || res.Report.Records != 3 ||
		res.Jobs[0].Status != swf.StatusCancelled || res.Jobs[0].ReqProcs != 2 {
		t.Errorf("--json: ids %v, %d records, jobs %+v; want %v, 3 records, cancelled", res.IDs, res.Report.Records, res.Jobs, want)
	}
}

// TestSacctArrayTasksBound: ranges of cancelled tasks make at most 65,536
// jobs beyond 16 a record of the log in all: three records of 40,000
// tasks each make 40,000 jobs, the other two skipped, counted. Without
// the bound a file of 1,000 such short lines made 40 million jobs.
func TestSacctArrayTasksBound(t *testing.T) {
	in := "JobID|JobIDRaw|State|Submit|Start|End|AllocCPUS\n"
	for _, id := range []string{"1", "2", "3"} {
		in += id + "_[1-40000]|" + id + "|CANCELLED|2024-03-01T08:00:00|None|2024-03-01T08:10:00|0\n"
	}
	res, err := Sacct(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := res.Report
	if r.Jobs != 40000 || r.Skipped[skipArrayOver] != 2 || r.Records != r.Jobs+r.Skipped[skipArrayOver] {
		t.Errorf("%d jobs, %d records, skipped %v; want 40000 jobs, 2 records skipped", r.Jobs, r.Records, r.Skipped)
	}
}
