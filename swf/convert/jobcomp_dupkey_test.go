package convert

import (
	"strings"
	"testing"
)

// TestJobcompKeyInValue: a job name (or a path) holding " KEY=" with a
// key of the line ("sweep JobState=COMPLETED", "train NodeCnt=4") makes
// the key appear twice: which one is the field cannot be told, and the
// line is malformed, counted with that reason. The first one was taken,
// the real field appended to the value before it: job 1, FAILED, was
// written COMPLETED, and job 2's start came from its name.
func TestJobcompKeyInValue(t *testing.T) {
	line := func(id, name, state, start string) string {
		return "JobId=" + id + " UserId=a(1) GroupId=g(1) Name=" + name + " JobState=" + state + " Partition=p TimeLimit=60 " +
			"StartTime=" + start + " EndTime=2024-03-01T08:12:00 NodeList=n1 NodeCnt=1 ProcCnt=4 WorkDir=/home/a SubmitTime=2024-03-01T08:00:00\n"
	}
	in := line("1", "sweep JobState=COMPLETED", "FAILED", "2024-03-01T08:02:00") +
		line("2", "x StartTime=2024-03-01T08:00:00", "COMPLETED", "2024-03-01T08:02:00") +
		line("3", "plain", "COMPLETED", "2024-03-01T08:02:00")
	res, err := Jobcomp(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 1 || res.IDs[0] != "3" || res.Report.Skipped[skipMalformed] != 2 {
		t.Fatalf("ids %v, jobs %+v, report %+v", res.IDs, res.Jobs, res.Report)
	}
	for _, e := range res.Report.Errors {
		if !strings.Contains(e.Error(), "twice") {
			t.Errorf("%v", e)
		}
	}
}
