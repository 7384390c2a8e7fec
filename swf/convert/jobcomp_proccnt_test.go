package convert

import (
	"strings"
	"testing"
)

// TestJobcompRanWithoutProcCnt: a job that ran (NodeList set, a start
// and an end) whose ProcCnt does not read (negative, past 2^24) or is
// absent keeps its wait and run time, its CPUs from Tres's cpu= when
// there, else unknown (noted). It was "ended without starting", wait and
// run time -1, as sacct's was before it read the start time instead.
func TestJobcompRanWithoutProcCnt(t *testing.T) {
	line := func(id, procs, tres string) string {
		return "JobId=" + id + " UserId=u(1) GroupId=g(1) Name=x JobState=COMPLETED Partition=p TimeLimit=10 " +
			"StartTime=2024-01-01T00:01:00 EndTime=2024-01-01T00:03:00 NodeList=n1 NodeCnt=1" + procs + tres +
			" SubmitTime=2024-01-01T00:00:00 DerivedExitCode=0:0 ExitCode=0:0\n"
	}
	in := line("1", " ProcCnt=-2", " Tres=cpu=4,node=1") + line("2", " ProcCnt=4294967294", "") + line("3", "", "")
	res, err := Jobcomp(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 3 {
		t.Fatalf("%d jobs", len(res.Jobs))
	}
	for i, alloc := range []int64{4, -1, -1} {
		if j := res.Jobs[i]; j.Wait != 60 || j.RunTime != 120 || j.AllocProcs != alloc {
			t.Errorf("job %s: wait %d run %d allocated %d; want 60, 120, %d", res.IDs[i], j.Wait, j.RunTime, j.AllocProcs, alloc)
		}
	}
	a := res.Report.Anomalies
	if a[noteNeverStarted] != 0 || a[noteNoAlloc] != 2 || a["unreadable ProcCnt"] != 2 || len(res.Report.Errors) != 2 {
		t.Errorf("anomalies %v, errors %v; want 2 %q, 2 unreadable ProcCnt, none %q", a, res.Report.Errors, noteNoAlloc, noteNeverStarted)
	}
}
