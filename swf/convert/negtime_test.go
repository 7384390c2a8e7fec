package convert

import (
	"errors"
	"strings"
	"testing"
)

// TestJSONNegativeTime: a negative time stamp in sacct --json or a
// slurmrestd snapshot is corrupt, unreadable with its error, as the text
// readers' are; it was unknown without a word (only 0 is Slurm's unset
// time; one before 1990 is unreadable too, TestTimeBefore1990).
func TestJSONNegativeTime(t *testing.T) {
	in := `{"jobs":[{"job_id":1,"state":{"current":"COMPLETED"},"time":{"submission":1704067200,"start":-5,"end":1704067800,"elapsed":600},` +
		`"tres":{"allocated":[{"type":"cpu","count":2}]}}]}`
	res, err := SacctJSON(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if e := res.Report.Errors; len(e) != 1 || e[0].Field != "time.start" || !errors.Is(e[0], errRange) || res.Report.Anomalies["unreadable time.start"] != 1 {
		t.Errorf("sacct-json: errors %v, anomalies %v", e, res.Report.Anomalies)
	}
	rest := `{"jobs":[{"job_id":7,"job_state":"RUNNING","submit_time":1700000000,"start_time":-60,"cpus":1}]}`
	snap, err := QueueSnapshot(strings.NewReader(rest), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if e := snap.Report.Errors; len(e) != 1 || e[0].Field != "start_time" || !errors.Is(e[0], errRange) {
		t.Errorf("slurmrestd: errors %v", e)
	}
}
