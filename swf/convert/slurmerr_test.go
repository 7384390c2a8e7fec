package convert

import (
	"strings"
	"testing"
)

// sacct --json or slurmrestd that could not reach the database or the
// controller prints its error and no job ("errors": [...], "jobs": []):
// an error that quotes it, not an empty trace (exit 0, the error in a
// note). An error beside jobs stays a note; no error and no job stays an
// empty result (an empty window, an empty queue).
func TestSlurmReportedErrorNoJob(t *testing.T) {
	failed := `{"meta":{},"errors":[{"error":"Unable to contact slurm controller (connect failure)","error_number":1007}],"warnings":[],"jobs":[]}`
	if _, err := SacctJSON(strings.NewReader(failed), Options{}); err == nil || !strings.Contains(err.Error(), "Unable to contact slurm controller") {
		t.Errorf("sacct-json: %v, want the reported error", err)
	}
	if _, err := QueueSnapshot(strings.NewReader(failed), Options{}); err == nil || !strings.Contains(err.Error(), "Unable to contact slurm controller") {
		t.Errorf("slurmrestd: %v, want the reported error", err)
	}
	// Without a "jobs" key: the same error, not "JSON of another kind".
	bare := `{"meta":{},"errors":[{"error":"Unable to contact slurm controller (connect failure)"}]}`
	if _, err := SacctJSON(strings.NewReader(bare), Options{}); err == nil || !strings.Contains(err.Error(), "Unable to contact slurm controller") {
		t.Errorf("sacct-json without jobs: %v, want the reported error", err)
	}
	if _, err := QueueSnapshot(strings.NewReader(bare), Options{}); err == nil || !strings.Contains(err.Error(), "Unable to contact slurm controller") {
		t.Errorf("slurmrestd without jobs: %v, want the reported error", err)
	}
	beside := `{"errors":[{"error":"partial"}],"jobs":[{"job_id":1,"state":{"current":["COMPLETED"]},"time":{"submission":1704067200,"start":1704067260,"end":1704067320,"elapsed":60},"tres":{"allocated":[{"type":"cpu","count":2}]}}]}`
	res, err := SacctJSON(strings.NewReader(beside), Options{})
	if err != nil || len(res.Jobs) != 1 || len(res.Report.Notes) == 0 || !strings.Contains(res.Report.Notes[len(res.Report.Notes)-1], "partial") {
		t.Errorf("an error beside a job: %v, %+v", err, res)
	}
	for _, in := range []string{`{"errors":[],"jobs":[]}`, `{"jobs":[]}`} {
		if res, err := SacctJSON(strings.NewReader(in), Options{}); err != nil || len(res.Jobs) != 0 {
			t.Errorf("%s: %v", in, err)
		}
		if _, err := QueueSnapshot(strings.NewReader(in), Options{}); err != nil {
			t.Errorf("slurmrestd %s: %v", in, err)
		}
	}
}
