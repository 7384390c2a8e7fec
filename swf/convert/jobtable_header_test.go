package convert

import (
	"os"
	"strings"
	"testing"
)

// TestJobTableDigitHeader: a header among the rows whose column names
// begin with a digit ("1st_start") is "another header line", its columns
// applying from there on. It was read as a row: a malformed record, and
// the rows behind it read by the first header's positions.
func TestJobTableDigitHeader(t *testing.T) {
	m := map[string]string{"id": "id", "submit": "submit", "start": "1st_start", "end": "end", "reqprocs": "2n"}
	for _, c := range []struct{ name, in string }{
		{"a name with a digit inside", "id,submit,1st_start,end,2n\n1,1700000000,1700000010,1700000100,4\n" +
			"submit,id,1st_start,end,2n\n1700000050,2,1700000060,1700000100,8\n"},
		{"first field", "1st_start,id,submit,end,2n\n1700000010,1,1700000000,1700000100,4\n" +
			"1st_start,submit,id,end,2n\n1700000060,1700000050,2,1700000100,8\n"},
	} {
		res, err := GPUTrace(strings.NewReader(c.in), Options{ColumnMap: m})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		checkTableAccounts(t, c.name, res.Report, len(res.Jobs))
		if len(res.Jobs) != 2 || res.Report.Skipped["another header line"] != 1 || res.Report.Skipped[skipMalformed] != 0 {
			t.Fatalf("%s: %d jobs, %+v", c.name, len(res.Jobs), res.Report)
		}
		if j := res.Jobs[1]; res.IDs[1] != "2" || j.Submit != 50 || j.Wait != 10 || j.RunTime != 40 || j.ReqProcs != 8 {
			t.Errorf("%s: second job %s %+v", c.name, res.IDs[1], j)
		}
	}
	// A row is still a row: values that are numbers, times and clocks.
	for _, f := range [][]string{{"a", "1700000000"}, {"a", "2023-01-02T00:10:00Z"}, {"a", "1-02:00:00"}, {"a", "-1"}, {"a", "1.5e9"}} {
		if headerLike(f) {
			t.Errorf("%q taken for a header", f)
		}
	}
	if !headerLike([]string{"1st_start", "95th_pct", "submit"}) {
		t.Error("names beginning with a digit not taken for a header")
	}
}

// TestColumnMapQuotedName: a ColumnMap's column in double quotes is the
// name as written: a comma, an '=', a quote ("") or a ':' that is no
// unit's in it; a suffix only after the closing quote.
func TestColumnMapQuotedName(t *testing.T) {
	in := "\"Submit, UTC\",\"Time:h\",\"Wall \"\"req\"\"\",\"a=b\"\n1700000000,100,2,7\n"
	m := map[string]string{"submit": `"Submit, UTC"`, "runtime": `"Time:h"`, "limit": `"Wall ""req""":h`, "reqprocs": `"a=b"`}
	res, err := GPUTrace(strings.NewReader(in), Options{ColumnMap: m})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 1 || res.Jobs[0].ReqTime != 7200 || res.Jobs[0].ReqProcs != 7 {
		t.Errorf("%+v %+v", res.Jobs, res.Report)
	}
	for _, bad := range []string{`"Submit`, `"Submit" x`, `"Submit":nope`} {
		if err := (&Options{ColumnMap: map[string]string{"submit": bad}}).Validate(); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// TestRepeatedHeaderBOM: files concatenated, each beginning with a
// byte-order mark (spreadsheet exports): the second's header is a
// repeated header line, in a mapped table, SuperCloud's and Helios's. It
// was a malformed record (its first column "\ufeffid" no name).
func TestRepeatedHeaderBOM(t *testing.T) {
	bom := "\xef\xbb\xbf"
	mapped := "id,submit\n1,1700000000\n"
	sc := "id_job,time_submit,time_start,time_end,cpus_alloc,state\n1,1700000000,1700000010,1700000020,4,3\n"
	helios := string(must(os.ReadFile("testdata/gpu-helios.csv")))
	for _, c := range []struct {
		name, in string
		opt      Options
	}{
		{"mapped", mapped + bom + strings.Replace(mapped, "1,", "2,", 1), Options{ColumnMap: map[string]string{"id": "id", "submit": "submit"}}},
		{"supercloud", bom + sc + bom + strings.Replace(sc, "\n1,", "\n2,", 1), Options{}},
		{"helios", bom + helios + bom + helios, Options{}},
	} {
		res, err := GPUTrace(strings.NewReader(c.in), c.opt)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if res.Report.Skipped["repeated header line"] != 1 || res.Report.Skipped[skipMalformed] != 0 {
			t.Errorf("%s: skipped %v", c.name, res.Report.Skipped)
		}
	}
}

// TestJobTableTimeFraction: a time's fraction of a second, dropped (SWF
// has whole seconds), is counted on its job, epoch seconds and
// timestamps alike; a fraction of zeros is none. It was dropped silently.
func TestJobTableTimeFraction(t *testing.T) {
	in := "id,submit,start,end\n" +
		"a,1700000000.5,1700000010,1700000100\n" +
		"b,1700000000,1700000010.000,2023-11-14 22:15:00.250000\n" +
		"c,1700000000.0,2023-11-14T22:13:30.000Z,1700000100\n" +
		"d,2023-11-14 22:13:20.000001+00:00,1700000010,1700000100\n"
	m := map[string]string{"id": "id", "submit": "submit", "start": "start", "end": "end"}
	res, err := GPUTrace(strings.NewReader(in), Options{ColumnMap: m})
	if err != nil {
		t.Fatal(err)
	}
	checkTableAccounts(t, "fraction", res.Report, len(res.Jobs))
	if n := res.Report.Anomalies[noteTimeFraction]; n != 3 {
		t.Errorf("%d jobs with a fraction noted, want 3 (a, b, d): %v", n, res.Report.Anomalies)
	}
	if j := res.Jobs[0]; len(res.Jobs) != 4 || j.Submit != 0 || j.Wait != 10 || j.RunTime != 90 {
		t.Errorf("%+v", res.Jobs)
	}
}
