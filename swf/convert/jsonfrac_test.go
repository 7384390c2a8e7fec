package convert

import (
	"strconv"
	"strings"
	"testing"
)

// A fractional number in sacct --json or a queue snapshot (Slurm writes
// integers) is a malformed job naming the field, not the number cut to
// its integer part without a word (2.5 processors were 2).
func TestSlurmJSONFraction(t *testing.T) {
	job := func(id int, cpus string) string {
		return `{"job_id":` + strconv.Itoa(id) + `,"state":{"current":["COMPLETED"]},` +
			`"time":{"submission":1704067200,"start":1704067260,"end":1704067320,"elapsed":60,"limit":60},` +
			`"tres":{"allocated":[{"type":"cpu","count":` + cpus + `}]}}`
	}
	in := `{"jobs":[` + job(1, "2.5") + "," + job(2, `{"set":true,"infinite":false,"number":0.5}`) + "," + job(3, "2.0") + `]}`
	res, err := SacctJSON(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 1 || res.Jobs[0].AllocProcs != 2 {
		t.Fatalf("jobs %+v, want job 3 alone, on 2 processors", res.Jobs)
	}
	if res.Report.Skipped[skipMalformed] != 2 || len(res.Report.Errors) != 2 {
		t.Fatalf("skipped %v, errors %v: want 2 malformed", res.Report.Skipped, res.Report.Errors)
	}
	for _, e := range res.Report.Errors {
		if e.Field != "tres.allocated.count" || !strings.Contains(e.Error(), "fractional number") {
			t.Errorf("%v: want field tres.allocated.count, a fractional number", e)
		}
	}

	snap := `{"jobs":[{"job_id":7,"job_state":["PENDING"],"submit_time":{"set":true,"infinite":false,"number":1704067200},` +
		`"cpus":{"set":true,"infinite":false,"number":1.5},"time_limit":{"set":true,"infinite":false,"number":60}},` +
		`{"job_id":8,"job_state":["PENDING"],"submit_time":{"set":true,"infinite":false,"number":1704067200},` +
		`"cpus":{"set":true,"infinite":false,"number":4},"time_limit":{"set":true,"infinite":false,"number":60}}]}`
	s, err := QueueSnapshot(strings.NewReader(snap), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Running) != 0 || len(s.Waiting) != 1 || s.Waiting[0].ID != "8" || s.Report.Skipped[skipMalformed] != 1 || len(s.Report.Errors) != 1 || s.Report.Errors[0].Field != "cpus" {
		t.Errorf("jobs %+v, skipped %v, errors %v: want job 8 alone, 1 malformed in field cpus", s.Waiting, s.Report.Skipped, s.Report.Errors)
	}
}
