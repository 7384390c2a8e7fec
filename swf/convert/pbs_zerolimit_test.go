package convert

import (
	"strings"
	"testing"
)

// A PBS walltime of 0 is no limit, -1 and noted, as a Slurm limit of 0
// is (zeroLimit): it was written as a requested time of 0, which the
// simulators read as no estimate, without a word from the conversion.
func TestPBSZeroWalltime(t *testing.T) {
	in := "04/01/2024 10:22:00;E;6.srv;user=u ctime=1711965600 start=1711966000 end=1711966060 Exit_status=0 Resource_List.walltime=00:00:00 exec_host=n3/0-3\n" +
		"04/01/2024 10:23:00;E;7.srv;user=u ctime=1711965600 start=1711966000 end=1711966060 Exit_status=0 Resource_List.walltime=600 exec_host=n3/0-3\n"
	res, err := PBS(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 2 || res.Jobs[0].ReqTime != -1 || res.Jobs[1].ReqTime != 600 {
		t.Fatalf("jobs %+v, want requested times -1 and 600", res.Jobs)
	}
	if a := res.Report.Anomalies; a[noteZeroLimit] != 1 || len(a) != 1 {
		t.Errorf("anomalies %v, want %q once", a, noteZeroLimit)
	}
}
