package convert

import (
	"strings"
	"testing"
)

// TestPBSDeleteAfterEnd: a D record after the job's E record (qdel of a
// job that had just ended) is a record of that job, counted as such, not
// a new job skipped for "no submit time"; a Q record after it is a new
// job of the id again.
func TestPBSDeleteAfterEnd(t *testing.T) {
	in := "04/01/2024 10:00:00;Q;1.srv;queue=batch\n" +
		"04/01/2024 10:00:05;S;1.srv;user=u group=g queue=batch ctime=1711965600 start=1711965605 exec_host=n1/0\n" +
		"04/01/2024 10:01:05;E;1.srv;user=u group=g queue=batch ctime=1711965600 start=1711965605 end=1711965665 Exit_status=0 exec_host=n1/0\n" +
		"04/01/2024 10:01:06;D;1.srv;requestor=u@h\n" +
		"04/01/2024 10:02:00;Q;1.srv;queue=batch\n" +
		"04/01/2024 10:02:30;D;1.srv;requestor=u@h\n"
	res, err := PBS(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := res.Report
	if r.Jobs != 2 || r.Records != 6 {
		t.Errorf("jobs %d records %d, want 2 6", r.Jobs, r.Records)
	}
	checkCounts(t, "skipped", r.Skipped, map[string]int{"record after the job ended": 1})
	checkCounts(t, "states", r.States, map[string]int{"E": 1, "D": 1})
}
