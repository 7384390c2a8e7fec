package convert

import (
	"strings"
	"testing"
)

// Options.MaxProcs smaller than the log's jobs (a node count given for
// the cores) is said in a note with how many jobs are larger and the
// largest: the trace was written without a word, and a simulation then
// rejected those jobs. A MaxProcs that holds every job says nothing.
func TestMaxProcsSmallerThanJobsNoted(t *testing.T) {
	in := "JobID|State|Submit|Start|End|AllocCPUS|ReqCPUS\n" +
		"1|COMPLETED|1704067200|1704067260|1704067320|8|8\n" +
		"2|COMPLETED|1704067200|1704067260|1704067320|2|16\n" +
		"3|COMPLETED|1704067200|1704067260|1704067320|4|4\n"
	res, err := Sacct(strings.NewReader(in), Options{MaxProcs: 4})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, n := range res.Report.Notes {
		found = found || strings.HasPrefix(n, "2 jobs allocated or asked more processors than MaxProcs 4 (the largest 16)")
	}
	if !found {
		t.Errorf("notes %q", res.Report.Notes)
	}
	if res, err = Sacct(strings.NewReader(in), Options{MaxProcs: 16}); err != nil {
		t.Fatal(err)
	}
	for _, n := range res.Report.Notes {
		if strings.Contains(n, "than MaxProcs") {
			t.Errorf("MaxProcs 16: %q", n)
		}
	}
}
