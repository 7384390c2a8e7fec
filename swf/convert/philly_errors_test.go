package convert

import (
	"os"
	"strings"
	"testing"
)

// TestPhillyErrorsNamed: a Philly job with a value of the wrong JSON type
// is a malformed record whose error names the job (its place in the list,
// its jobid when readable) and the field, in the words sacct --json's
// errors use ("a JSON number, want a string"); it quoted Go's ("json:
// cannot unmarshal number into Go struct field phillyJob.jobid of type
// string"). A syntax error names the job too.
func TestPhillyErrorsNamed(t *testing.T) {
	text, err := os.ReadFile("testdata/gpu-philly.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"jobid": "application_1506638472019_20001"`, `"jobid": 5`,
			`convert: philly line 2, field jobid: "number": job 1 of the list: a JSON number, want a string`},
		{`"submitted_time": "`, `"submitted_time": 7, "x": "`,
			`convert: philly line 2, field submitted_time: "number": job 1 of the list (jobid "application_1506638472019_20001"): a JSON number, want a string`},
		{`"gpus": [`, `"gpus": {"n": 3}, "x": [`,
			`convert: philly line 2, field attempts.detail.gpus: "object": job 1 of the list (jobid "application_1506638472019_20001"): a JSON object, want a list`},
	} {
		bad := strings.Replace(string(text), c.from, c.to, 1)
		if bad == string(text) {
			t.Fatalf("testdata changed: no %q", c.from)
		}
		res, err := GPUTrace(strings.NewReader(bad), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if rep := res.Report; len(rep.Errors) != 1 || rep.Errors[0].Error() != c.want || rep.Skipped[skipMalformed] != 1 {
			t.Errorf("%s: errors %v, skipped %v; want one, %q", c.to, rep.Errors, rep.Skipped, c.want)
		}
		if _, err := GPUTrace(strings.NewReader(bad), Options{Strict: true}); err == nil || err.Error() != c.want {
			t.Errorf("%s, strict: %v, want %q", c.to, err, c.want)
		}
	}
	bad := strings.Replace(string(text), `"vc": "a91c3e",`, `"vc": "a91c3e",,`, 1)
	if _, err := GPUTrace(strings.NewReader(bad), Options{}); err == nil || !strings.Contains(err.Error(), "job 1 of the list: invalid character") {
		t.Errorf("a syntax error: %v, want it to name the job", err)
	}
}
