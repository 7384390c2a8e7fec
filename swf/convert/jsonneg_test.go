package convert

import (
	"errors"
	"strings"
	"testing"
)

// A negative time.limit in sacct --json is an invalid limit (as in a
// slurmrestd snapshot), not a requested time of -300 s, which made a
// Result swf.WriteAll refuses; a negative time.elapsed, time.suspended
// or required.CPUs is unreadable with its error, not unknown without a
// word.
func TestSacctJSONNegativeValues(t *testing.T) {
	in := `{"jobs":[` +
		`{"job_id":1,"state":{"current":["COMPLETED"]},"time":{"submission":1704067200,"start":1704067260,"end":1704067320,"elapsed":60,` +
		`"limit":{"set":true,"infinite":false,"number":-5}},"tres":{"allocated":[{"type":"cpu","count":2}]}},` +
		`{"job_id":2,"state":{"current":["COMPLETED"]},"time":{"submission":1704067200,"start":1704067260,"end":1704067320,"elapsed":-60,"suspended":-5,` +
		`"limit":60},"tres":{"allocated":[{"type":"cpu","count":2}]},"required":{"CPUs":-3}}]}`
	res, err := SacctJSON(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 2 || res.Jobs[0].ReqTime != -1 || res.Jobs[1].ReqProcs != -1 {
		t.Fatalf("jobs %+v, want 2, the first's requested time -1", res.Jobs)
	}
	a := res.Report.Anomalies
	if a[noteInvalidLimit] != 1 || a["unreadable time.elapsed"] != 1 || a["unreadable time.suspended"] != 1 || a["unreadable required.CPUs"] != 1 {
		t.Errorf("anomalies %v", a)
	}
	if len(res.Report.Errors) != 3 {
		t.Fatalf("errors %v, want 3", res.Report.Errors)
	}
	for _, e := range res.Report.Errors {
		if !errors.Is(e, errRange) {
			t.Errorf("%v, want %v", e, errRange)
		}
	}
}
