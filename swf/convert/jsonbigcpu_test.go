package convert

import (
	"strings"
	"testing"
)

// TestSacctJSONBigCPUsOneError: a tres.allocated cpu count past 2^24
// (1e30, 99999999), in a job without tres.requested (the demand then
// reads tres.allocated too), is one error, the CPU count's: it was two,
// the second the demand's, "cpu=1e30: not a number" of a number.
func TestSacctJSONBigCPUsOneError(t *testing.T) {
	job := func(id, cpus string) string {
		return `{"job_id":` + id + `,"state":{"current":["COMPLETED"]},"time":{"submission":1709280000,"start":1709280010,` +
			`"end":1709280070,"elapsed":60},"tres":{"allocated":[{"type":"cpu","count":` + cpus + `}]}}`
	}
	res, err := SacctJSON(strings.NewReader(`{"jobs":[`+job("1", "1e30")+","+job("2", "99999999")+`]}`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	errs := res.Report.Errors
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), "line 1") || !strings.Contains(errs[1].Error(), "99999999") ||
		!strings.Contains(errs[0].Error(), "more than 16777216 processors") {
		t.Errorf("errors %v; want one a job, the CPU count's", errs)
	}
}
