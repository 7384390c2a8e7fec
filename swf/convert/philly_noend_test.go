package convert

import (
	"strings"
	"testing"
)

// TestPhillyEndedWithoutEndTime: a job Pass, Failed or Killed whose last
// attempt has no end_time ended (its status says so) at a time unknown:
// it is written with its wait and run time -1, noted "no end time", not
// skipped as "not finished at dump"; a Running or Queued one is.
func TestPhillyEndedWithoutEndTime(t *testing.T) {
	job := func(id, status, end string) string {
		return `{"status":"` + status + `","vc":"v","jobid":"` + id + `","user":"u","submitted_time":"2017-10-10 14:00:00",` +
			`"attempts":[{"start_time":"2017-10-10 14:00:10","end_time":` + end + `,"detail":[{"ip":"m1","gpus":["gpu0"]}]}]}`
	}
	in := "[" + strings.Join([]string{
		job("f", "Failed", "null"), job("k", "Killed", `"None"`), job("p", "Pass", `""`),
		job("r", "Running", "null"), job("q", "Queued", "null"),
	}, ",") + "]"
	res, err := GPUTrace(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Report
	if len(res.Jobs) != 3 || rep.Records != 5 || rep.Jobs != 3 {
		t.Fatalf("records %d jobs %d (%d written), want 5 3", rep.Records, rep.Jobs, len(res.Jobs))
	}
	for k, j := range res.Jobs {
		if j.Wait != 10 || j.RunTime != -1 || j.AllocProcs != 1 {
			t.Errorf("job %s: wait %d run %d allocated %d, want 10 -1 1", res.IDs[k], j.Wait, j.RunTime, j.AllocProcs)
		}
	}
	checkCounts(t, "skipped", rep.Skipped, map[string]int{"not finished at dump (no end_time on the last attempt)": 2})
	if a := rep.Anomalies; a[noteNoEnd] != 3 || a[noteCancelledRun] != 1 {
		t.Errorf("anomalies %v, want no end time 3, cancelled while running 1", a)
	}
}
