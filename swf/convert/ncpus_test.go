package convert

import (
	"strings"
	"testing"
)

// sacct's NCPUS is AllocCPUS under another name: a --format with NCPUS
// and no AllocCPUS gives the jobs and steps their processors (they were
// -1, "allocated processors unknown", the column noted absent). With
// both, AllocCPUS is read.
func TestSacctNCPUS(t *testing.T) {
	in := "JobID|State|Submit|Start|End|NCPUS|AveRSS\n" +
		"1|COMPLETED|1704067200|1704067260|1704067320|8|\n" +
		"1.batch|COMPLETED|1704067260|1704067260|1704067320|2|2048K\n"
	res, err := Sacct(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if j := res.Jobs[0]; j.AllocProcs != 8 || j.UsedMemory != 1024 || len(res.Report.Anomalies) != 0 {
		t.Errorf("allocated %d, used memory %v KB, anomalies %v; want 8, 1024 (2048 KB over the step's 2 CPUs), none",
			j.AllocProcs, j.UsedMemory, res.Report.Anomalies)
	}
	for _, n := range res.Report.Notes {
		if strings.Contains(n, "AllocCPUS") {
			t.Errorf("note %q", n)
		}
	}
	both := "JobID|State|Submit|Start|End|NCPUS|AllocCPUS\n1|COMPLETED|1704067200|1704067260|1704067320|8|4\n"
	if res, err = Sacct(strings.NewReader(both), Options{}); err != nil || res.Jobs[0].AllocProcs != 4 {
		t.Errorf("with both columns: %v, %+v", err, res)
	}
}
