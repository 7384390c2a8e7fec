package convert

import (
	"strconv"
	"strings"
	"testing"
)

// sacct --json's twin of TestSacctStartWithoutCPUs: a job that ran from
// its start to a later end with no CPU count in tres.allocated (the list
// empty, no cpu entry, or a count of 0) started on processors unknown
// (job 10, 12, 13), not "ended without starting"; one whose start equals
// its end (a job ended while pending) never started (job 11), nor one
// cancelled so (job 14), unless its count was unreadable (job 16, as
// Sacct's unreadable AllocCPUS).
func TestSacctJSONStartWithoutCPUs(t *testing.T) {
	job := func(id int, state string, start, end int64, alloc string) string {
		return `{"job_id":` + strconv.Itoa(id) + `,"state":{"current":"` + state + `"},"time":{"submission":1704067200,"start":` +
			strconv.FormatInt(start, 10) + `,"end":` + strconv.FormatInt(end, 10) + `},"tres":{"allocated":` + alloc + `}}`
	}
	in := `{"jobs":[` + strings.Join([]string{
		job(10, "FAILED", 1704067203, 1704067204, `[]`),
		job(11, "FAILED", 1704067205, 1704067205, `[]`),
		job(12, "COMPLETED", 1704067206, 1704067216, `[{"type":"mem","count":100},{"type":"node","count":1}]`),
		job(13, "COMPLETED", 1704067207, 1704067217, `[{"type":"cpu","count":0}]`),
		job(14, "CANCELLED", 1704067208, 1704067208, `[]`),
		job(15, "COMPLETED", 1704067209, 1704067219, `[{"type":"cpu","count":4}]`),
		job(16, "COMPLETED", 1704067210, 1704067210, `[{"type":"cpu","count":99999999}]`),
	}, ",") + `]}`
	res, err := SacctJSON(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	type got struct{ wait, run, alloc int64 }
	want := []got{{3, 1, -1}, {-1, -1, -1}, {6, 10, -1}, {7, 10, -1}, {-1, -1, -1}, {9, 10, 4}, {10, 0, -1}}
	if len(res.Jobs) != len(want) {
		t.Fatalf("%d jobs, want %d", len(res.Jobs), len(want))
	}
	for k, j := range res.Jobs {
		if (got{j.Wait, j.RunTime, j.AllocProcs}) != want[k] {
			t.Errorf("job %s: wait %d, run %d, allocated %d, want %+v", res.IDs[k], j.Wait, j.RunTime, j.AllocProcs, want[k])
		}
	}
	if a := res.Report.Anomalies; a[noteNoAlloc] != 4 || a["unreadable tres.allocated"] != 1 || a[noteNeverStarted] != 1 {
		t.Errorf("anomalies %v", a)
	}
}
