package convert

import (
	"os"
	"strings"
	"testing"
)

// TestZeroLimit: a time limit of 0 (sacct's TimelimitRaw or Timelimit,
// jobcomp's TimeLimit, sacct --json's limit, scontrol's and slurmrestd's
// snapshots) is none imposed, as Slurm reads it: the requested time is
// unknown (-1), noted. It was written as a requested time of 0 with no
// note (the snapshots kept doing so after the accounting formats were
// fixed).
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
	sc, err := os.ReadFile("testdata/snapshot/scontrol-show-job-one.txt")
	if err != nil {
		t.Fatal(err)
	}
	zeroSC := strings.Replace(string(sc), "TimeLimit=02:00:00", "TimeLimit=00:00:00", 1)
	rest, err := os.ReadFile("testdata/snapshot/slurmrestd-v0.0.41.json")
	if err != nil {
		t.Fatal(err)
	}
	limit := "\"time_limit\": {\n        \"set\": true,\n        \"infinite\": false,\n        \"number\": "
	zeroRest := strings.Replace(string(rest), limit+"60", limit+"0", 1)
	if zeroSC == string(sc) || zeroRest == string(rest) {
		t.Fatal("the snapshot fixtures changed: no limit to set to 0")
	}
	snap := func(in string) func() (*Result, error) {
		return func() (*Result, error) {
			s, err := QueueSnapshot(strings.NewReader(in), Options{})
			if err != nil {
				return nil, err
			}
			return s.SWF(), nil
		}
	}
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
		{"scontrol", snap(zeroSC)},
		{"slurmrestd", snap(zeroRest)},
	} {
		res, err := c.conv()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		zero, unknown := 0, 0
		for _, j := range res.Jobs {
			zero += b2i(j.ReqTime == 0)
			unknown += b2i(j.ReqTime == -1)
		}
		if zero != 0 || unknown == 0 || res.Report.Anomalies[noteZeroLimit] != 1 {
			t.Errorf("%s: %d jobs, %d with ReqTime 0, %d with -1, anomalies %v; want none, some and %q once",
				c.name, len(res.Jobs), zero, unknown, res.Report.Anomalies, noteZeroLimit)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
