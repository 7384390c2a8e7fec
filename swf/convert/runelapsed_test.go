package convert

import (
	"strings"
	"testing"
)

// A job that ran whose End is Unknown gets its run time from Elapsed, a
// field derived another way, counted as its start from End − Elapsed is:
// it was written without a word. A job with its end has no such note.
func TestSacctRunTimeFromElapsedNoted(t *testing.T) {
	in := "JobID|State|Submit|Start|End|Elapsed|AllocCPUS\n" +
		"1|COMPLETED|1704067200|1704067260|Unknown|1-02:03:04|4\n" +
		"2|COMPLETED|1704067200|1704067260|1704067320|00:01:00|4\n"
	res, err := Sacct(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 2 || res.Jobs[0].RunTime != 93784 || res.Jobs[1].RunTime != 60 {
		t.Fatalf("jobs %+v", res.Jobs)
	}
	if a := res.Report.Anomalies; a[noteRunElapsed] != 1 || len(a) != 1 {
		t.Errorf("anomalies %v, want %q once", a, noteRunElapsed)
	}
}
