package convert

import (
	"strconv"
	"strings"
	"testing"
)

// TestSlurmNoPartition: a partition "N/A", "(null)" or empty is no
// queue (-1), noted, alike in sacct, sacct --json and jobcomp, not a
// queue named "N/A" (or "(null)") numbered as any other.
func TestSlurmNoPartition(t *testing.T) {
	parts := []string{"p", "N/A", "", "(null)", "q"}
	var sacct, js, jc strings.Builder
	sacct.WriteString("JobID|State|Submit|Start|End|ElapsedRaw|AllocCPUS|Partition\n")
	for i, p := range parts {
		id := strconv.Itoa(i + 1)
		sacct.WriteString(id + "|COMPLETED|1704067200|1704067260|1704067320|60|2|" + p + "\n")
		if i > 0 {
			js.WriteString(",")
		}
		js.WriteString(`{"job_id":` + id + `,"partition":"` + p + `","state":{"current":["COMPLETED"]},` +
			`"time":{"submission":1704067200,"start":1704067260,"end":1704067320,"elapsed":60,"limit":60},` +
			`"tres":{"allocated":[{"type":"cpu","count":2}]}}`)
		jc.WriteString("JobId=" + id + " UserId=u(1) GroupId=g(1) Name=x JobState=COMPLETED Partition=" + p + " TimeLimit=10 " +
			"StartTime=2024-01-01T00:01:00 EndTime=2024-01-01T00:03:00 NodeList=n1 NodeCnt=1 ProcCnt=2" +
			" SubmitTime=2024-01-01T00:00:00 ExitCode=0:0\n")
	}
	for _, c := range []struct {
		name string
		run  func(string) (*Result, error)
		in   string
	}{
		{"sacct", func(s string) (*Result, error) { return Sacct(strings.NewReader(s), Options{}) }, sacct.String()},
		{"sacct-json", func(s string) (*Result, error) { return SacctJSON(strings.NewReader(s), Options{}) }, `{"jobs":[` + js.String() + `]}`},
		{"jobcomp", func(s string) (*Result, error) { return Jobcomp(strings.NewReader(s), Options{}) }, jc.String()},
	} {
		res, err := c.run(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(res.Jobs) != len(parts) {
			t.Fatalf("%s: %d jobs", c.name, len(res.Jobs))
		}
		for k, want := range []int64{1, -1, -1, -1, 2} {
			if res.Jobs[k].Queue != want {
				t.Errorf("%s: job %s (partition %q): queue %d, want %d", c.name, res.IDs[k], parts[k], res.Jobs[k].Queue, want)
			}
		}
		if res.Header.MaxQueues != 2 || res.Report.Anomalies[noteNoPartition] != 3 {
			t.Errorf("%s: MaxQueues %d, anomalies %v: want 2 queues, 3 %q", c.name, res.Header.MaxQueues, res.Report.Anomalies, noteNoPartition)
		}
	}
	// Without a Partition column, Report.Notes says so once: no job noted.
	res, err := Sacct(strings.NewReader("JobID|State|Submit|Start|End|ElapsedRaw|AllocCPUS\n1|COMPLETED|1704067200|1704067260|1704067320|60|2\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Report.Anomalies[noteNoPartition] != 0 || res.Jobs[0].Queue != -1 {
		t.Errorf("no Partition column: anomalies %v, queue %d", res.Report.Anomalies, res.Jobs[0].Queue)
	}

	// A snapshot (slurmrestd) likewise: no partition, noted.
	snap := `{"jobs":[{"job_id":7,"partition":"N/A","job_state":["PENDING"],"submit_time":{"set":true,"infinite":false,"number":1704067200},` +
		`"cpus":{"set":true,"infinite":false,"number":2},"time_limit":{"set":true,"infinite":false,"number":60}}]}`
	s, err := QueueSnapshot(strings.NewReader(snap), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Waiting) != 1 || s.Waiting[0].Partition != "" || s.Report.Anomalies[noteNoPartition] != 1 {
		t.Errorf("snapshot: waiting %+v, anomalies %v: want partition \"\", noted", s.Waiting, s.Report.Anomalies)
	}
}
