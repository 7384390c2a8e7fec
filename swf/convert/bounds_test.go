package convert

import (
	"strings"
	"testing"
)

// Issue 31: absurd values are anomalies counted with a reason, never
// accepted as they are, and never wrap around.
func TestAbsurdValues(t *testing.T) {
	t.Run("pbs exec_host of 10^9 processors", func(t *testing.T) {
		in := "03/01/2024 08:00:00;Q;1.s;queue=batch\n" +
			"03/01/2024 08:00:10;E;1.s;user=u queue=batch ctime=1709280000 start=1709280010 end=1709280070 " +
			"exec_host=n1/0-999999999 Resource_List.walltime=01:00:00 Exit_status=0\n"
		res, err := PBS(strings.NewReader(in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Jobs) != 1 || res.Jobs[0].AllocProcs == 1e9 || res.Report.Anomalies["unreadable exec_host"] != 1 {
			t.Errorf("jobs %+v, anomalies %v", res.Jobs, res.Report.Anomalies)
		}
	})
	t.Run("pbs nodes spec that overflows int64", func(t *testing.T) {
		in := "03/01/2024 08:00:10;E;1.s;user=u ctime=1709280000 start=1709280010 end=1709280070 " +
			"Resource_List.nodes=1099511627776:ppn=1099511627776 Resource_List.walltime=01:00:00 Exit_status=0\n"
		res, err := PBS(strings.NewReader(in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Jobs) != 1 || res.Jobs[0].ReqProcs != -1 || res.Report.Anomalies["unreadable Resource_List.nodes"] != 1 {
			t.Errorf("jobs %+v, anomalies %v", res.Jobs, res.Report.Anomalies)
		}
	})
	head := strings.ReplaceAll(SacctFormat, ",", "|") + "\n"
	t.Run("sacct end in year 9999", func(t *testing.T) {
		in := head + sacctLine(good("1")) + sacctLine(with(good("2"), "End", "9999-12-31T23:59:59"))
		res, err := Sacct(strings.NewReader(in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Jobs) != 2 || res.Jobs[1].RunTime != -1 || res.Report.Anomalies["unreadable End"] != 1 {
			t.Errorf("jobs %+v, anomalies %v", res.Jobs, res.Report.Anomalies)
		}
	})
	t.Run("sacct epoch submit in year 9999", func(t *testing.T) {
		in := head + sacctLine(good("1")) + sacctLine(with(good("2"), "Submit", "253402300799"))
		res, err := Sacct(strings.NewReader(in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Jobs) != 1 || res.Report.Skipped[skipNoSubmit] != 1 || len(res.Report.Errors) != 1 {
			t.Errorf("jobs %+v, report %+v", res.Jobs, res.Report)
		}
	})
	t.Run("sacct 10^9 CPUs", func(t *testing.T) {
		in := head + sacctLine(with(good("1"), "AllocCPUS", "1000000000"))
		res, err := Sacct(strings.NewReader(in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Jobs) != 1 || res.Jobs[0].AllocProcs != -1 || res.Report.Anomalies["unreadable AllocCPUS"] != 1 {
			t.Errorf("jobs %+v, anomalies %v", res.Jobs, res.Report.Anomalies)
		}
	})
	t.Run("sacct 4 EiB of memory", func(t *testing.T) {
		in := head + sacctLine(with(good("1"), "ReqTRES", "cpu=1,mem=4000000T"))
		res, err := Sacct(strings.NewReader(in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Jobs) != 1 || res.Jobs[0].ReqMemory != -1 || res.Report.Anomalies[noteMemRange] != 1 {
			t.Errorf("jobs %+v, anomalies %v", res.Jobs, res.Report.Anomalies)
		}
	})
	t.Run("sacct-json times in year 9999 and out of int64", func(t *testing.T) {
		in := `{"jobs": [{"job_id": 1, "state": {"current": "COMPLETED"}, "time": {"submission": 1709280000, "start": 1709280010, "end": 253402300799}, "tres": {"allocated": [{"type": "cpu", "count": 2}]}},
{"job_id": 2, "state": {"current": "COMPLETED"}, "time": {"submission": 1709280000, "start": 1e300, "end": 1709280070}, "tres": {"allocated": [{"type": "cpu", "count": 1000000000}]}}]}`
		res, err := SacctJSON(strings.NewReader(in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		a := res.Report.Anomalies
		if len(res.Jobs) != 2 || res.Jobs[0].RunTime != -1 || res.Jobs[1].AllocProcs == 1e9 ||
			a["unreadable time.end"] != 1 || a["unreadable time.start"] != 1 || a["unreadable tres.allocated"] != 1 {
			t.Errorf("jobs %+v, anomalies %v", res.Jobs, a)
		}
	})
	t.Run("jobcomp 10^9 CPUs and year 9999", func(t *testing.T) {
		in := "JobId=1 UserId=u(1) GroupId=g(1) Name=x JobState=COMPLETED Partition=p TimeLimit=5 " +
			"StartTime=2024-03-01T08:00:10 EndTime=9999-01-01T00:00:00 NodeList=n1 NodeCnt=1 ProcCnt=1000000000 " +
			"SubmitTime=2024-03-01T08:00:00\n"
		res, err := Jobcomp(strings.NewReader(in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		a := res.Report.Anomalies
		if len(res.Jobs) != 1 || res.Jobs[0].AllocProcs == 1e9 || a["unreadable ProcCnt"] != 1 || a["unreadable EndTime"] != 1 {
			t.Errorf("jobs %+v, anomalies %v", res.Jobs, a)
		}
	})
}
