package convert

import (
	"strings"
	"testing"
	"time"
)

// TestPhillyAttemptsSettleRepeatedHour: a Philly job of two attempts on
// the night New York's clocks go back (2024-11-03: 01:00 to 02:00 twice).
// Submitted 00:30 EDT; attempt 1 ran 01:10 to 01:50, attempt 2 from
// 01:05 to 01:20. Each attempt starts at or after the end of the one
// before, so attempt 2 ran in the second 01:00 hour (EST), attempt 1 in
// the first (EDT): wait 40 min, run time 01:10 EDT to 01:20 EST, 70 min.
// Submit, first start and last end alone allow three choices: it was
// left ambiguous, as read (EDT), a run time of 10 min.
func TestPhillyAttemptsSettleRepeatedHour(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no time zone data:", err)
	}
	in := `[{"status":"Pass","vc":"v","jobid":"a_1","user":"u","submitted_time":"2024-11-03 00:30:00","attempts":[` +
		`{"start_time":"2024-11-03 01:10:00","end_time":"2024-11-03 01:50:00","detail":[{"ip":"m","gpus":["gpu0"]}]},` +
		`{"start_time":"2024-11-03 01:05:00","end_time":"2024-11-03 01:20:00","detail":[{"ip":"m","gpus":["gpu0"]}]}]}]`
	res, err := GPUTrace(strings.NewReader(in), Options{Location: ny})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 1 {
		t.Fatalf("%d jobs", len(res.Jobs))
	}
	a := res.Report.Anomalies
	if j := res.Jobs[0]; j.Wait != 2400 || j.RunTime != 4200 || a[noteRepeatedHourTold] != 1 || a[noteRepeatedHour] != 0 {
		t.Errorf("wait %d run %d, anomalies %v; want 2400, 4200, told", j.Wait, j.RunTime, a)
	}
	// An attempt's time that does not read settles nothing: without
	// attempt 1's end and attempt 2's start, three choices again,
	// ambiguous, as read.
	in = strings.Replace(in, `"end_time":"2024-11-03 01:50:00"`, `"end_time":"None"`, 1)
	in = strings.Replace(in, `"start_time":"2024-11-03 01:05:00"`, `"start_time":"11/03 1:05"`, 1)
	res, err = GPUTrace(strings.NewReader(in), Options{Location: ny})
	if err != nil {
		t.Fatal(err)
	}
	if j := res.Jobs[0]; j.RunTime != 600 || res.Report.Anomalies[noteRepeatedHour] != 1 {
		t.Errorf("attempts 1 without end, 2 without start: run %d, anomalies %v; want 600, ambiguous", j.RunTime, res.Report.Anomalies)
	}

	// Thirteen attempts of 01:10 to 01:20, 27 times in the hour (2^27
	// choices): settled by submit, first start and last end alone.
	// Submitted 01:50 EDT, started 01:10 EST, ended 03:00 EST.
	att := `{"start_time":"2024-11-03 01:10:00","end_time":"2024-11-03 01:20:00","detail":[{"ip":"m","gpus":["gpu0"]}]},`
	many := `[{"status":"Pass","vc":"v","jobid":"a_2","user":"u","submitted_time":"2024-11-03 01:50:00","attempts":[` +
		strings.Repeat(att, 12) + strings.Replace(att, "01:20:00", "03:00:00", 1)
	many = strings.TrimSuffix(many, ",") + `]}]`
	res, err = GPUTrace(strings.NewReader(many), Options{Location: ny})
	if err != nil {
		t.Fatal(err)
	}
	if j := res.Jobs[0]; j.Wait != 1200 || j.RunTime != 6600 || res.Report.Anomalies[noteRepeatedHourTold] != 1 {
		t.Errorf("13 attempts: wait %d run %d, anomalies %v; want 1200, 6600, told", j.Wait, j.RunTime, res.Report.Anomalies)
	}
	// The same without a start time: no first start, no panic.
	res, err = GPUTrace(strings.NewReader(strings.ReplaceAll(many, `"start_time":"2024-11-03 01:10:00"`, `"start_time":null`)), Options{Location: ny})
	if err != nil || len(res.Jobs) != 1 || res.Jobs[0].Wait != -1 {
		t.Errorf("13 attempts without a start: %v, %+v", err, res)
	}
	// Attempt 1 ends (00:20, away from the repeated hour) before it
	// starts: no choice puts the chain in order, so its submit, first
	// start and last end settle it (submitted 01:50 EDT, started 01:10
	// EST): it was left ambiguous, as read, started before its submit.
	bad := `[{"status":"Pass","vc":"v","jobid":"a_3","user":"u","submitted_time":"2024-11-03 01:50:00","attempts":[` +
		`{"start_time":"2024-11-03 01:10:00","end_time":"2024-11-03 00:20:00","detail":[{"ip":"m","gpus":["gpu0"]}]},` +
		`{"start_time":"2024-11-03 03:00:00","end_time":"2024-11-03 04:00:00","detail":[{"ip":"m","gpus":["gpu0"]}]}]}]`
	res, err = GPUTrace(strings.NewReader(bad), Options{Location: ny})
	if err != nil {
		t.Fatal(err)
	}
	if j := res.Jobs[0]; j.Wait != 1200 || res.Report.Anomalies[noteRepeatedHourTold] != 1 {
		t.Errorf("attempts out of order: wait %d, anomalies %v; want 1200, told", j.Wait, res.Report.Anomalies)
	}
}
