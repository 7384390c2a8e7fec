package convert

import (
	"strings"
	"testing"
	"time"
)

// Local times in the hour a daylight-saving change repeats (New York,
// 2024-11-03 01:00-02:00, first EDT then EST) name two moments each.
// Job 1 started 01:55 EDT and ended 01:05 EST, 600 s later as Elapsed
// says: read as both EDT it ended before its start, run time -1; the
// times that agree with Elapsed are the only choice, taken and noted.
// Job 2 (started and ended in the repeated hour, submitted before it) may
// have run in either hour: its wait is an hour off in one reading, which
// nothing tells, noted as ambiguous (it was said of neither). Job 3 has
// its offsets, job 4 epoch seconds: no note.
func TestSacctRepeatedHour(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no time zone data:", err)
	}
	in := "JobID|State|Submit|Start|End|ElapsedRaw|AllocCPUS\n" +
		"1|COMPLETED|2024-11-03T01:50:00|2024-11-03T01:55:00|2024-11-03T01:05:00|600|1\n" +
		"2|COMPLETED|2024-11-03T00:50:00|2024-11-03T01:10:00|2024-11-03T01:20:00|600|1\n" +
		"3|COMPLETED|2024-11-03T01:50:00-04:00|2024-11-03T01:55:00-04:00|2024-11-03T01:05:00-05:00|600|1\n" +
		"4|COMPLETED|1730613000|1730613300|1730613900|600|1\n"
	res, err := Sacct(strings.NewReader(in), Options{Location: ny})
	if err != nil {
		t.Fatal(err)
	}
	run := map[string]int64{}
	wait := map[string]int64{}
	for k, j := range res.Jobs {
		run[res.IDs[k]], wait[res.IDs[k]] = j.RunTime, j.Wait
	}
	for _, id := range []string{"1", "3", "4"} {
		if run[id] != 600 || wait[id] != 300 {
			t.Errorf("job %s: wait %d, run %d, want 300 and 600", id, wait[id], run[id])
		}
	}
	if a := res.Report.Anomalies; a[noteRepeatedHourTold] != 1 || a[noteRepeatedHour] != 1 || a[noteEndBefore] != 0 {
		t.Errorf("anomalies %v, want one told and one ambiguous", a)
	}
	// The same in jobcomp, which has no elapsed time: submit ≤ start ≤
	// end alone tells job 5's end (it was "end before start").
	jc := "JobId=5 UserId=a(1) GroupId=g(1) Name=x JobState=COMPLETED Partition=p TimeLimit=10 " +
		"StartTime=2024-11-03T01:55:00 EndTime=2024-11-03T01:05:00 NodeList=n1 NodeCnt=1 ProcCnt=1 " +
		"SubmitTime=2024-11-03T00:50:00 DerivedExitCode=0:0 ExitCode=0:0\n"
	res, err = Jobcomp(strings.NewReader(jc), Options{Location: ny})
	if err != nil {
		t.Fatal(err)
	}
	if j := res.Jobs[0]; j.RunTime != 600 || j.Wait != 3900 || res.Report.Anomalies[noteRepeatedHourTold] != 1 {
		t.Errorf("jobcomp: wait %d, run %d, anomalies %v; want 3900, 600, told", j.Wait, j.RunTime, res.Report.Anomalies)
	}
	// Start unknown: submit ≤ end tells job 6's submit (01:50 EDT, the
	// end 01:05 EST), before its start is taken from End − Elapsed
	// (02:04 EDT: a wait of 840 s).
	in = "JobID|State|Submit|Start|End|ElapsedRaw|AllocCPUS\n" +
		"6|COMPLETED|2024-11-03T01:50:00|Unknown|2024-11-03T01:05:00|60|1\n"
	if res, err = Sacct(strings.NewReader(in), Options{Location: ny}); err != nil {
		t.Fatal(err)
	}
	if j := res.Jobs[0]; j.Wait != 840 || j.RunTime != 60 || res.Report.Anomalies[noteRepeatedHourTold] != 1 {
		t.Errorf("start unknown: wait %d, run %d, anomalies %v; want 840, 60, told", j.Wait, j.RunTime, res.Report.Anomalies)
	}
}

// localTwin finds the other moment of a wall-clock time in the repeated
// hour only, in a zone whose change is half an hour (Lord Howe) too.
func TestLocalTwin(t *testing.T) {
	for _, c := range []struct {
		zone, stamp string
		shift       int64 // twin − moment, 0 for none
	}{
		{"America/New_York", "2024-11-03T01:30:00", 3600},
		{"America/New_York", "2024-11-03T02:30:00", 0},
		{"America/New_York", "2024-11-03T00:59:59", 0},
		{"Europe/Paris", "2024-10-27T02:30:00", 3600},
		{"Australia/Lord_Howe", "2024-04-07T01:45:00", 1800},
		{"UTC", "2024-11-03T01:30:00", 0},
	} {
		loc, err := time.LoadLocation(c.zone)
		if err != nil {
			t.Skip("no time zone data:", err)
		}
		tm, err := time.ParseInLocation("2006-01-02T15:04:05", c.stamp, loc)
		if err != nil {
			t.Fatal(err)
		}
		u := tm.Unix()
		v, ok, _ := localTwin(u, loc)
		if c.shift == 0 {
			if ok {
				t.Errorf("%s %s: twin %d, want none", c.zone, c.stamp, v)
			}
			continue
		}
		if d := v - u; !ok || d != c.shift && d != -c.shift || time.Unix(v, 0).In(loc).Format("2006-01-02T15:04:05") != c.stamp {
			t.Errorf("%s %s: twin %d (%v), want %d s away, the same wall clock", c.zone, c.stamp, v, ok, c.shift)
		}
	}
}

// A local time the zone skips (02:30 on 2024-03-10 in New York, the clocks
// going forward) is no time Slurm of that zone prints: the job is noted
// (Location is likely not the log's zone); it was moved an hour without
// a word. Times with their offset are not.
func TestSacctSkippedHour(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no time zone data:", err)
	}
	in := "JobID|State|Submit|Start|End|ElapsedRaw|AllocCPUS\n" +
		"1|COMPLETED|2024-03-10T01:50:00|2024-03-10T02:30:00|2024-03-10T03:40:00|600|1\n" +
		"2|COMPLETED|2024-03-10T01:50:00|2024-03-10T03:30:00|2024-03-10T03:40:00|600|1\n" +
		"3|COMPLETED|2024-03-10T01:50:00-05:00|2024-03-10T02:30:00-05:00|2024-03-10T03:40:00-04:00|600|1\n"
	res, err := Sacct(strings.NewReader(in), Options{Location: ny})
	if err != nil {
		t.Fatal(err)
	}
	if a := res.Report.Anomalies; a[noteSkippedHour] != 1 {
		t.Errorf("anomalies %v, want %q once", a, noteSkippedHour)
	}
}
