package convert

import (
	"strconv"
	"strings"
	"testing"
)

// A sacct job that ran but whose start is unknown or unreadable takes it
// from its end less Elapsed, noted, as PBS takes end -
// resources_used.walltime: it was "ended without starting", wait and run
// time -1. Job 1 (Start Unknown), 2 (unreadable, FAILED) and 3 (TIMEOUT)
// so; job 4's Elapsed puts the start 100 s before its submit, kept and
// noted "start before submit" (wait -1). A job cancelled while pending
// (5, Elapsed 0) and one with Elapsed 0 and no CPUs (6) never started;
// nor a job without Elapsed (7), nor one with Elapsed 0 and CPUs (8):
// slurmdbd gives a job whose start is 0 ("Unknown") an Elapsed of 0,
// whatever it ran, so its start is not its end (it was, run time 0).
func TestSacctStartFromElapsed(t *testing.T) {
	in := "JobID|State|Submit|Start|End|ElapsedRaw|AllocCPUS\n" +
		"1|COMPLETED|1704067200|Unknown|1704067800|500|2\n" +
		"2|FAILED|1704067200|2024-13-45T00:00:00|1704067800|600|2\n" +
		"3|TIMEOUT|1704067200||1704067800|300|2\n" +
		"4|COMPLETED|1704067200|Unknown|1704067800|700|2\n" +
		"5|CANCELLED|1704067200|Unknown|1704067800|0|0\n" +
		"6|COMPLETED|1704067200|Unknown|1704067800|0|0\n" +
		"7|COMPLETED|1704067200|Unknown|1704067800||2\n" +
		"8|COMPLETED|1704067200|Unknown|1704067800|0|2\n"
	res, err := Sacct(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	type got struct{ wait, run, alloc int64 }
	want := []got{{100, 500, 2}, {0, 600, 2}, {300, 300, 2}, {-1, 700, 2}, {-1, -1, -1}, {-1, -1, -1}, {-1, -1, -1}, {-1, -1, -1}}
	if len(res.Jobs) != len(want) {
		t.Fatalf("%d jobs, want %d", len(res.Jobs), len(want))
	}
	for k, j := range res.Jobs {
		if (got{j.Wait, j.RunTime, j.AllocProcs}) != want[k] {
			t.Errorf("job %s: wait %d run %d allocated %d, want %+v", res.IDs[k], j.Wait, j.RunTime, j.AllocProcs, want[k])
		}
	}
	checkCounts(t, "anomalies", res.Report.Anomalies, map[string]int{noteStartElapsed: 4, noteStartBefore: 1,
		noteNeverStarted: 3, noteTimeout: 1, "unreadable Start": 1})
}

// sacct --json's twin: time.start 0 (unset) or unreadable with time.end
// and time.elapsed known takes the start from their difference.
func TestSacctJSONStartFromElapsed(t *testing.T) {
	job := func(id int, state string, start, elapsed int64) string {
		return `{"job_id":` + strconv.Itoa(id) + `,"state":{"current":"` + state + `"},"time":{"submission":1704067200,"start":` +
			strconv.FormatInt(start, 10) + `,"end":1704067800,"elapsed":` + strconv.FormatInt(elapsed, 10) +
			`},"tres":{"allocated":[{"type":"cpu","count":2}]}}`
	}
	in := `{"jobs":[` + strings.Join([]string{
		job(1, "COMPLETED", 0, 500),
		job(2, "FAILED", 3600, 600),
		job(3, "COMPLETED", 0, 700),
		job(4, "CANCELLED", 0, 0),
		job(5, "COMPLETED", 0, 0),
	}, ",") + `]}`
	res, err := SacctJSON(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	type got struct{ wait, run int64 }
	want := []got{{100, 500}, {0, 600}, {-1, 700}, {-1, -1}, {-1, -1}}
	if len(res.Jobs) != len(want) {
		t.Fatalf("%d jobs, want %d", len(res.Jobs), len(want))
	}
	for k, j := range res.Jobs {
		if (got{j.Wait, j.RunTime}) != want[k] {
			t.Errorf("job %s: wait %d run %d, want %+v", res.IDs[k], j.Wait, j.RunTime, want[k])
		}
	}
	if a := res.Report.Anomalies; a[noteStartElapsed] != 3 || a[noteStartBefore] != 1 || a[noteNeverStarted] != 1 {
		t.Errorf("anomalies %v", a)
	}
}
