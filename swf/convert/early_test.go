package convert

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// An absolute time before 1990 is an unset or zeroed field printed as a
// date (1970-01-01, a few hours off it read in another zone, epoch
// seconds 3600), in every format that records absolute times: the field
// is unreadable (-1, "unreadable FIELD", errEarly in Errors), a job
// without its submit time skipped as "no submit time", a PBS line
// whose own time stamp is one a malformed record. Such times were taken
// as real: a job submitted in 1970 stretched the log over 54 years.
func TestTimeBefore1990(t *testing.T) {
	early := func(t *testing.T, rep Report, fields ...string) {
		t.Helper()
		got := map[string]bool{}
		for _, e := range rep.Errors {
			if !errors.Is(e, errEarly) {
				t.Errorf("%v, want %v", e, errEarly)
			}
			got[e.Field] = true
		}
		for _, f := range fields {
			if !got[f] {
				t.Errorf("no error on %s: %v", f, rep.Errors)
			}
		}
		if len(rep.Errors) != len(fields) {
			t.Errorf("%d errors, want %d: %v", len(rep.Errors), len(fields), rep.Errors)
		}
	}
	t.Run("sacct", func(t *testing.T) {
		in := "JobID|State|Submit|Start|End|AllocCPUS\n" +
			"1|COMPLETED|2024-01-01T00:00:00|1970-01-01T01:00:00|2024-01-01T00:10:00|1\n" +
			"2|COMPLETED|3600|1704067200|1704067800|1\n" +
			"3|FAILED|1704067200|1704067260|1989-12-31T23:59:59|1\n"
		res, err := Sacct(strings.NewReader(in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		early(t, res.Report, "Start", "Submit", "End")
		if len(res.Jobs) != 2 || res.Report.Skipped[skipNoSubmit] != 1 {
			t.Fatalf("%d jobs, skipped %v", len(res.Jobs), res.Report.Skipped)
		}
		if j := res.Jobs[0]; j.Wait != -1 || j.RunTime != -1 || res.Header.UnixStartTime != 1704067200 {
			t.Errorf("job 1: wait %d run %d, log from %d", j.Wait, j.RunTime, res.Header.UnixStartTime)
		}
		if j := res.Jobs[1]; j.Wait != 60 || j.RunTime != -1 {
			t.Errorf("job 3: wait %d run %d, want 60 -1", j.Wait, j.RunTime)
		}
		if a := res.Report.Anomalies; a["unreadable Start"] != 1 || a["unreadable End"] != 1 {
			t.Errorf("anomalies %v", a)
		}
	})
	t.Run("sacct-json", func(t *testing.T) {
		in := `{"jobs":[{"job_id":1,"state":{"current":"COMPLETED"},"time":{"submission":1704067200,"start":3600,"end":1704067800,"elapsed":600}},` +
			`{"job_id":2,"state":{"current":"COMPLETED"},"time":{"submission":5,"start":1704067200,"end":1704067800,"elapsed":600}}]}`
		res, err := SacctJSON(strings.NewReader(in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		early(t, res.Report, "time.start", "time.submission")
		// Job 1's start, unreadable, is its end less its elapsed time.
		if len(res.Jobs) != 1 || res.Report.Skipped[skipNoSubmit] != 1 || res.Jobs[0].Wait != 0 || res.Jobs[0].RunTime != 600 {
			t.Errorf("%d jobs (wait %d), skipped %v", len(res.Jobs), res.Jobs[0].Wait, res.Report.Skipped)
		}
	})
	t.Run("jobcomp", func(t *testing.T) {
		in := "JobId=1 UserId=a(1) GroupId=g(1) Name=x JobState=COMPLETED Partition=p TimeLimit=60 " +
			"StartTime=1970-01-01T00:00:01 EndTime=2024-03-01T08:12:00 NodeList=n1 NodeCnt=1 ProcCnt=4 SubmitTime=2024-03-01T08:00:00\n"
		res, err := Jobcomp(strings.NewReader(in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		early(t, res.Report, "StartTime")
	})
	t.Run("pbs", func(t *testing.T) {
		in := "01/01/1970 00:00:00;E;1.srv;user=u ctime=1711965600 start=1711965600 end=1711965660 Exit_status=0 exec_host=n1/0\n" +
			"04/01/2024 10:00:00;S;2.srv;user=u ctime=1711965600 start=1711965600 exec_host=n1/0\n" +
			"04/01/2024 10:01:00;E;2.srv;user=u ctime=1711965600 start=7200 end=1711965660 Exit_status=0 exec_host=n1/0\n"
		res, err := PBS(strings.NewReader(in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		early(t, res.Report, "timestamp", "start")
		// Job 2's start=7200 passes to its S record's time.
		if len(res.Jobs) != 1 || res.Report.Skipped[skipMalformed] != 1 || res.Jobs[0].Wait != 0 || res.Jobs[0].RunTime != 60 {
			t.Errorf("%+v, skipped %v", res.Jobs, res.Report.Skipped)
		}
	})
	t.Run("gpu", func(t *testing.T) {
		helios := "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration,queue\n" +
			"1,u,v,8,48,1,COMPLETED,2020-07-01 09:00:00,1970-01-01 08:00:00,2020-07-01 11:30:04,9000,4\n"
		res, err := GPUTrace(strings.NewReader(helios), Options{})
		if err != nil {
			t.Fatal(err)
		}
		early(t, res.Report, "start_time (column 9)")
		philly := `[{"status":"Pass","vc":"v","jobid":"a","user":"u","submitted_time":"1970-01-01 00:00:00","attempts":[]},` +
			`{"status":"Pass","vc":"v","jobid":"b","user":"u","submitted_time":"2017-10-10 14:00:00","attempts":[]}]`
		res, err = GPUTrace(strings.NewReader(philly), Options{})
		if err != nil {
			t.Fatal(err)
		}
		early(t, res.Report, "submitted_time")
	})
	t.Run("snapshot", func(t *testing.T) {
		rest := `{"jobs":[{"job_id":7,"job_state":"RUNNING","submit_time":1700000000,"start_time":60,"cpus":1}]}`
		snap, err := QueueSnapshot(strings.NewReader(rest), Options{})
		if err != nil {
			t.Fatal(err)
		}
		early(t, snap.Report, "start_time")
		sc, err := os.ReadFile("testdata/snapshot/scontrol-show-job-o.txt")
		if err != nil {
			t.Fatal(err)
		}
		line, _, _ := strings.Cut(string(sc), "\n")
		line = strings.Replace(line, "StartTime=2024-03-01T08:01:00", "StartTime=1970-01-01T00:01:00", 1)
		if snap, err = QueueSnapshot(strings.NewReader(line+"\n"), Options{}); err != nil {
			t.Fatal(err)
		}
		early(t, snap.Report, "StartTime")
	})
	o := Options{Now: time.Unix(3600, 0)}
	if err := o.Validate(); err == nil || !strings.Contains(err.Error(), "before 1990") {
		t.Errorf("Now 1970-01-01T01:00:00: %v", err)
	}
}
