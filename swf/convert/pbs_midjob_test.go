package convert

import (
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// A log given from mid-job: job 7's D record (qdel while it ran) comes
// before its E record, and neither its Q nor its S record is in the file.
// It is one job, cancelled while running, its times from the E record;
// it was two records, the D one skipped "no submit time" and the E one a
// job "job id reused". A D record alone (job 8, no E after it) is still
// skipped "no submit time", and one before a Q record of its id (job 9) is
// closed by it, the Q's job written on its own (its id noted reused: the
// D record was an earlier job's).
func TestPBSDeleteBeforeEndMidJob(t *testing.T) {
	in := "04/01/2024 10:50:00;D;7.srv;requestor=u@h\n" +
		"04/01/2024 10:50:05;E;7.srv;user=u group=g queue=q ctime=1711968000 qtime=1711968000 start=1711968300 end=1711968605 " +
		"exec_host=n1/0-3 Resource_List.walltime=01:00:00 resources_used.walltime=00:05:05 Exit_status=271\n" +
		"04/01/2024 10:51:00;D;8.srv;requestor=u@h\n" +
		"04/01/2024 10:52:00;D;9.srv;requestor=u@h\n" +
		"04/01/2024 10:53:00;Q;9.srv;queue=q\n" +
		"04/01/2024 10:54:00;D;9.srv;requestor=u@h\n"
	res, err := PBS(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 2 || res.IDs[0] != "7.srv" || res.IDs[1] != "9.srv" {
		t.Fatalf("jobs %v, report %+v", res.IDs, res.Report)
	}
	j := res.Jobs[0]
	if j.Status != swf.StatusCancelled || j.Wait != 300 || j.RunTime != 305 || j.AllocProcs != 4 {
		t.Errorf("job 7: status %d wait %d run %d allocated %d", j.Status, j.Wait, j.RunTime, j.AllocProcs)
	}
	if j := res.Jobs[1]; j.Status != swf.StatusCancelled || j.Wait != -1 {
		t.Errorf("job 9: status %d wait %d", j.Status, j.Wait)
	}
	checkCounts(t, "skipped", res.Report.Skipped, map[string]int{skipNoSubmit: 2})
	checkCounts(t, "anomalies", res.Report.Anomalies, map[string]int{noteCancelledRun: 1, noteNoLimit: 1, noteIDReused: 1})
}
