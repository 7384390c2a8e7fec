package convert

import (
	"os"
	"strings"
	"testing"
)

// TestZeroLimit: a time limit of 0 (sacct's TimelimitRaw or Timelimit,
// jobcomp's TimeLimit, sacct --json's limit) is none imposed, as Slurm
// reads it: the requested time is unknown (-1), noted. It was written as
// a requested time of 0 with no note.
func TestZeroLimit(t *testing.T) {
	head := strings.ReplaceAll(SacctFormat, ",", "|") + "\n"
	clock := strings.Replace(head, "TimelimitRaw", "Timelimit", 1)
	jc := "JobId=1 UserId=u(1) GroupId=g(1) Name=x JobState=COMPLETED Partition=p TimeLimit=0 " +
		"StartTime=2024-03-01T08:00:10 EndTime=2024-03-01T08:01:10 NodeList=n1 NodeCnt=1 ProcCnt=2 " +
		"SubmitTime=2024-03-01T08:00:00\n"
	js, err := os.ReadFile("testdata/sacct-23.11.json")
	if err != nil {
		t.Fatal(err)
	}
	zeroJSON := strings.Replace(string(js), `"limit": {"set": true, "infinite": false, "number": 5}`,
		`"limit": {"set": true, "infinite": false, "number": 0}`, 1)
	for _, c := range []struct {
		name string
		conv func() (*Result, error)
	}{
		{"sacct TimelimitRaw", func() (*Result, error) {
			return Sacct(strings.NewReader(head+sacctLine(with(good("1"), "TimelimitRaw", "0"))), Options{})
		}},
		{"sacct Timelimit", func() (*Result, error) {
			return Sacct(strings.NewReader(clock+strings.Replace(sacctLine(good("1")), "|5|", "|00:00:00|", 1)), Options{})
		}},
		{"jobcomp", func() (*Result, error) { return Jobcomp(strings.NewReader(jc), Options{}) }},
		{"sacct-json", func() (*Result, error) { return SacctJSON(strings.NewReader(zeroJSON), Options{}) }},
	} {
		res, err := c.conv()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(res.Jobs) == 0 || res.Jobs[0].ReqTime != -1 || res.Report.Anomalies[noteZeroLimit] != 1 {
			t.Errorf("%s: jobs %d, first ReqTime %v, anomalies %v; want -1 and %q once", c.name, len(res.Jobs),
				res.Jobs[0].ReqTime, res.Report.Anomalies, noteZeroLimit)
		}
	}
}
