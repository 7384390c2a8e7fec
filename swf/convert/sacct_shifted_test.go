package convert

import (
	"strings"
	"testing"
)

// A line with more fields than the header for another reason than a '|'
// in its one text column (damaged, or a line of an output with more
// columns) is malformed when joining the extra fields into the text
// column would leave the State column no state: job 4's fields were
// joined into JobName and job 4 written from the wrong columns, its
// state "1704067260" ("unknown state"), its submit the End column's.
// A '|' in the job name (job 5) is still joined back.
func TestSacctShiftedColumnsMalformed(t *testing.T) {
	in := "JobID|JobName|State|Submit|Start|End|AllocCPUS\n" +
		"4|y|COMPLETED|1704067200|1704067260|1704067320|1|5|6\n" +
		"5|a|b|COMPLETED|1704067200|1704067260|1704067320|1\n"
	res, err := Sacct(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 1 || res.IDs[0] != "5" || res.Jobs[0].RunTime != 60 || res.Report.Skipped[skipMalformed] != 1 {
		t.Fatalf("ids %v, jobs %+v, report %+v", res.IDs, res.Jobs, res.Report)
	}
	if e := res.Report.Errors; len(e) != 1 || e[0].Line != 2 || !strings.Contains(e[0].Error(), `State "1704067260"`) {
		t.Errorf("errors %v", e)
	}
	if len(res.Report.Anomalies) != 0 {
		t.Errorf("anomalies %v", res.Report.Anomalies)
	}
}
