package convert

import (
	"strings"
	"testing"
)

// sacct -M a,b lists the jobs of two clusters, each numbering its own:
// with the Cluster column, job 7 of cluster a (PREEMPTED, a state after
// which a later record of the id is its next attempt) is not replaced by
// job 7 of cluster b, and each step goes to its own cluster's job. Job
// a/7 was dropped as an earlier attempt (Report.Requeued 1) and its step
// counted on b's.
func TestSacctClusters(t *testing.T) {
	in := "Cluster|JobID|JobIDRaw|State|Submit|Start|End|AllocCPUS|AveRSS|NTasks\n" +
		"a|7|7|PREEMPTED|1704067200|1704067260|1704067320|2||\n" +
		"a|7.batch|7.batch|CANCELLED|1704067260|1704067260|1704067320|2|2048K|1\n" +
		"b|7|7|COMPLETED|1704067300|1704067360|1704067420|4||\n" +
		"b|7.batch|7.batch|COMPLETED|1704067360|1704067360|1704067420|4|8192K|1\n"
	res, err := Sacct(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Report; len(res.Jobs) != 2 || r.Requeued != 0 || r.Steps != 2 {
		t.Fatalf("%d jobs, report %+v; want 2 jobs, no requeue", len(res.Jobs), r)
	}
	// used memory per CPU: a's 2048 KB over 2 CPUs, b's 8192 KB over 4.
	if a, b := res.Jobs[0], res.Jobs[1]; a.AllocProcs != 2 || a.UsedMemory != 1024 || b.AllocProcs != 4 || b.UsedMemory != 2048 {
		t.Errorf("jobs %+v", res.Jobs)
	}
	if res.Report.Anomalies[noteIDReused] != 0 {
		t.Errorf("anomalies %v", res.Report.Anomalies)
	}
}

// The same in sacct --json, whose jobs name their cluster.
func TestSacctJSONClusters(t *testing.T) {
	in := `{"jobs":[` +
		`{"job_id":7,"cluster":"a","state":{"current":["PREEMPTED"]},"time":{"submission":1704067200,"start":1704067260,"end":1704067320,"elapsed":60},"tres":{"allocated":[{"type":"cpu","count":2}]}},` +
		`{"job_id":7,"cluster":"b","state":{"current":["COMPLETED"]},"time":{"submission":1704067300,"start":1704067360,"end":1704067420,"elapsed":60},"tres":{"allocated":[{"type":"cpu","count":4}]}}]}`
	res, err := SacctJSON(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Report; len(res.Jobs) != 2 || r.Requeued != 0 {
		t.Errorf("%d jobs, report %+v; want 2 jobs, no requeue", len(res.Jobs), r)
	}
}

// The same in jobcomp files of two clusters read as one log (their lines
// name their Cluster).
func TestJobcompClusters(t *testing.T) {
	line := func(cluster, state string, submit int) string {
		return "JobId=7 UserId=u(1) GroupId=g(1) Name=x JobState=" + state + " Partition=p TimeLimit=10 " +
			"StartTime=2024-01-01T00:01:00 EndTime=2024-01-01T00:02:00 NodeList=n1 NodeCnt=1 ProcCnt=2 Cluster=" + cluster +
			" SubmitTime=2024-01-01T00:00:0" + string(rune('0'+submit)) + " DerivedExitCode=0:0 ExitCode=0:0\n"
	}
	res, err := Jobcomp(strings.NewReader(line("a", "NODE_FAIL", 0)+line("b", "COMPLETED", 5)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Report; len(res.Jobs) != 2 || r.Requeued != 0 {
		t.Errorf("%d jobs, report %+v; want 2 jobs, no requeue", len(res.Jobs), r)
	}
}
