package convert

import (
	"strings"
	"testing"
	"time"

	"github.com/batchq/batchq/swf"
)

// A job that held more CPUs than it requested (--exclusive: cpu=1 asked,
// the node's 64 held) has a demand of the CPUs held, noted; one that held
// what it asked, and one that never ran (no allocation), keep the
// request. The demand was 1 core: a simulation packed other jobs beside
// it on the node Slurm gave it whole.
func TestSacctHeldCPUs(t *testing.T) {
	in := "JobID|State|Submit|Start|End|ElapsedRaw|AllocCPUS|ReqCPUS|ReqTRES|AllocTRES\n" +
		"1|COMPLETED|1704067200|1704067300|1704067800|500|64|1|cpu=1,mem=2000M,node=1|cpu=64,mem=2000M,node=1\n" +
		"2|COMPLETED|1704067200|1704067300|1704067800|500|8|8|cpu=8,mem=2000M,node=1|cpu=8,mem=2000M,node=1\n" +
		"3|CANCELLED|1704067200|Unknown|1704067800|0|0|4|cpu=4,mem=2000M,node=1|\n"
	res, err := Sacct(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkHeld(t, res, []int64{64, 8, 4})
}

// sacct --json's twin: tres.allocated's cpu over tres.requested's.
func TestSacctJSONHeldCPUs(t *testing.T) {
	job := func(id, req, alloc string) string {
		s := `{"job_id":` + id + `,"state":{"current":"COMPLETED"},"time":{"submission":1704067200,"start":1704067300,"end":1704067800,"elapsed":500},` +
			`"tres":{"requested":[{"type":"cpu","count":` + req + `},{"type":"node","count":1}]`
		if alloc != "" {
			s += `,"allocated":[{"type":"cpu","count":` + alloc + `},{"type":"node","count":1}]`
		}
		return s + `}}`
	}
	in := `{"jobs":[` + strings.Join([]string{job("1", "1", "64"), job("2", "8", "8"), job("3", "4", "")}, ",") + `]}`
	res, err := SacctJSON(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkHeld(t, res, []int64{64, 8, 4})
}

// jobcomp's twin: ProcCnt (the CPUs held, once the job ran) over Tres's
// cpu (the request).
func TestJobcompHeldCPUs(t *testing.T) {
	line := func(id, procs, cpu, nodes string) string {
		return "JobId=" + id + " UserId=alice(1000) GroupId=alice(1000) Name=x JobState=COMPLETED Partition=p TimeLimit=10 " +
			"StartTime=2024-01-01T00:01:40 EndTime=2024-01-01T00:10:00 NodeList=" + nodes + " NodeCnt=1 ProcCnt=" + procs +
			" WorkDir=/tmp ReservationName= Tres=cpu=" + cpu + ",mem=2000M,node=1 Account=a QOS=normal WcKey= Cluster=c " +
			"SubmitTime=2024-01-01T00:00:00 EligibleTime=2024-01-01T00:00:00 DerivedExitCode=0:0 ExitCode=0:0\n"
	}
	in := line("1", "64", "1", "n1") + line("2", "8", "8", "n2") + line("3", "0", "4", "(null)")
	res, err := Jobcomp(strings.NewReader(in), Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	checkHeld(t, res, []int64{64, 8, 4})
}

// checkHeld checks the jobs' demands' cores per node (one node each) and
// that only the first job's rule is noted.
func checkHeld(t *testing.T, res *Result, cores []int64) {
	t.Helper()
	if len(res.Jobs) != len(cores) {
		t.Fatalf("%d jobs, want %d", len(res.Jobs), len(cores))
	}
	for k, j := range res.Jobs {
		if d := j.Demand; d == nil || d.Nodes != 1 || d.Cores != cores[k] {
			t.Errorf("job %s: demand %+v, want 1 node of %d cores", res.IDs[k], demandOf(j), cores[k])
		}
	}
	if n := res.Report.Anomalies[noteHeldCPUs]; n != 1 {
		t.Errorf("%q noted %d times, want 1 (anomalies %v)", noteHeldCPUs, n, res.Report.Anomalies)
	}
}

func demandOf(j swf.Job) swf.Demand {
	if j.Demand == nil {
		return swf.Demand{}
	}
	return *j.Demand
}
