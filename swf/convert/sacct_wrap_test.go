package convert

import (
	"strings"
	"testing"
)

// TestSacctIDWrapAfterNodeFail: job 5 failed with its node (NODE_FAIL,
// not requeued) and, months later, Slurm's ids having wrapped around
// (MaxJobId), another job got id 5. A NODE_FAIL record's later record of
// the id is its next attempt only when it could be one: the same user,
// submitted at the earlier attempt's end (Slurm submits a requeued job
// again when its epilog completes) or within a day of it. Both jobs are
// then kept, the later noted "job id reused"; the earlier was dropped as
// an attempt and counted in Report.Requeued. A requeue (job 6: submitted
// again at its NODE_FAIL's end) is still one job.
func TestSacctIDWrapAfterNodeFail(t *testing.T) {
	const head = "JobID|JobIDRaw|User|State|Submit|Start|End|AllocCPUS\n"
	for _, c := range []struct {
		name     string
		in       string
		jobs     int
		requeued int
		reused   int
	}{
		{"wrapped, another user", head +
			"5|5|alice|NODE_FAIL|2024-01-10T08:00:00|2024-01-10T08:01:00|2024-01-10T09:00:00|4\n" +
			"5|5|bob|COMPLETED|2024-06-02T10:00:00|2024-06-02T10:05:00|2024-06-02T11:00:00|2\n", 2, 0, 1},
		{"wrapped, the same user", head +
			"5|5|alice|NODE_FAIL|2024-01-10T08:00:00|2024-01-10T08:01:00|2024-01-10T09:00:00|4\n" +
			"5|5|alice|COMPLETED|2024-06-02T10:00:00|2024-06-02T10:05:00|2024-06-02T11:00:00|2\n", 2, 0, 1},
		{"submitted before the end", head +
			"5|5|alice|PREEMPTED|2024-01-10T08:00:00|2024-01-10T08:01:00|2024-01-10T09:00:00|4\n" +
			"5|5|alice|COMPLETED|2024-01-10T08:30:00|2024-01-10T09:05:00|2024-01-10T10:00:00|2\n", 2, 0, 1},
		{"requeued", head +
			"6|6|alice|NODE_FAIL|2024-01-10T08:00:00|2024-01-10T08:01:00|2024-01-10T09:00:00|4\n" +
			"6|6|alice|COMPLETED|2024-01-10T09:00:00|2024-01-10T09:05:00|2024-01-10T10:00:00|4\n", 1, 1, 0},
	} {
		res, err := Sacct(strings.NewReader(c.in), Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if r := res.Report; len(res.Jobs) != c.jobs || r.Requeued != c.requeued || r.Anomalies[noteIDReused] != c.reused {
			t.Errorf("%s: %d jobs, %d requeued, anomalies %v; want %d jobs, %d requeued, %d reused",
				c.name, len(res.Jobs), r.Requeued, r.Anomalies, c.jobs, c.requeued, c.reused)
		}
	}
	// sacct --json, through the same rule.
	in := `{"jobs":[` +
		`{"job_id":5,"user":"alice","state":{"current":["NODE_FAIL"]},"time":{"submission":1704873600,"start":1704873660,"end":1704877200,"elapsed":3540},"tres":{"allocated":[{"type":"cpu","count":4}]}},` +
		`{"job_id":5,"user":"bob","state":{"current":["COMPLETED"]},"time":{"submission":1717322400,"start":1717322700,"end":1717326000,"elapsed":3300},"tres":{"allocated":[{"type":"cpu","count":2}]}}]}`
	res, err := SacctJSON(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Report; len(res.Jobs) != 2 || r.Requeued != 0 || r.Anomalies[noteIDReused] != 1 {
		t.Errorf("--json: %d jobs, %d requeued, anomalies %v; want 2 jobs, none requeued, 1 reused", len(res.Jobs), r.Requeued, r.Anomalies)
	}
}
