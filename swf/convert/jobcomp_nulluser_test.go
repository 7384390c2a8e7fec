package convert

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestJobcompNullUser: Slurm writes UserId=name(uid), and (null)(uid)
// when the uid has no name: that is the user uid (as "(uid)" is), noted,
// not the user "null)(uid"; without a uid the user is unknown, noted.
func TestJobcompNullUser(t *testing.T) {
	line := func(id, user, group string) string {
		return "JobId=" + id + " UserId=" + user + " GroupId=" + group + " Name=x JobState=COMPLETED Partition=p TimeLimit=10 " +
			"StartTime=2024-01-01T00:01:00 EndTime=2024-01-01T00:03:00 NodeList=n1 NodeCnt=1 ProcCnt=1" +
			" SubmitTime=2024-01-01T00:00:00 ExitCode=0:0\n"
	}
	in := line("1", "(null)(1234)", "g(5)") + line("2", "(1234)", "(null)(5)") + line("3", "(null)", "(null)()") + line("4", "alice(77)", "g(5)")
	res, err := Jobcomp(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 4 {
		t.Fatalf("%d jobs", len(res.Jobs))
	}
	j := res.Jobs
	if j[0].User != j[1].User || j[0].User < 1 || j[2].User != -1 || j[3].User == j[0].User {
		t.Errorf("users %d %d %d %d: want the first two the same (uid 1234), the third unknown", j[0].User, j[1].User, j[2].User, j[3].User)
	}
	if j[2].Group != -1 {
		t.Errorf("group of (null)(): %d, want -1", j[2].Group)
	}
	a := res.Report.Anomalies
	if a["user name unresolved: its id"] != 2 || a["group name unresolved: its id"] != 1 || a["user unknown ((null), no id)"] != 1 || a["group unknown ((null), no id)"] != 1 {
		t.Errorf("anomalies %v", a)
	}
}

// TestScontrolNullUser: scontrol show job writes UserId= as jobcomp does:
// (null)(uid) is the user uid, noted, not "null)(uid".
func TestScontrolNullUser(t *testing.T) {
	data, err := os.ReadFile("testdata/snapshot/real-22.05/1-scontrol-show-job-o.txt")
	if err != nil {
		t.Fatal(err)
	}
	in := regexp.MustCompile(`UserId=[^ ]*`).ReplaceAllString(string(data), "UserId=(null)(4321)")
	s, err := QueueSnapshot(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	jobs := append(s.Running, s.Waiting...)
	if len(jobs) == 0 {
		t.Fatal("no jobs")
	}
	for _, j := range jobs {
		if j.User != "4321" {
			t.Errorf("job %s: user %q, want 4321", j.ID, j.User)
		}
	}
	// (A record of pending array tasks is one record, noted once.)
	if n, recs := s.Report.Anomalies["user name unresolved: its id"], strings.Count(in, "UserId="); n != recs {
		t.Errorf("anomalies %v: want %d user name unresolved", s.Report.Anomalies, recs)
	}
}
