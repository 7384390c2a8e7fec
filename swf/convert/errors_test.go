package convert

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// sacctLine builds a job line of SacctFormat from name=value pairs, the
// other columns empty.
func sacctLine(kv map[string]string) string {
	cols := strings.Split(SacctFormat, ",")
	f := make([]string, len(cols))
	for i, c := range cols {
		f[i] = kv[c]
	}
	return strings.Join(f, "|") + "\n"
}

func good(id string) map[string]string {
	return map[string]string{"JobID": id, "JobIDRaw": id, "State": "COMPLETED", "Submit": "2024-03-01T08:00:00",
		"Start": "2024-03-01T08:00:10", "End": "2024-03-01T08:01:10", "AllocCPUS": "2", "ReqCPUS": "2",
		"TimelimitRaw": "5", "Partition": "p", "User": "u"}
}

func with(kv map[string]string, k, v string) map[string]string {
	out := map[string]string{}
	for a, b := range kv {
		out[a] = b
	}
	out[k] = v
	return out
}

func TestErrorsNameLineAndField(t *testing.T) {
	long := strings.Repeat("x", 500)
	in := strings.ReplaceAll(SacctFormat, ",", "|") + "\n" + sacctLine(good("1")) + sacctLine(with(good("2"), "TimelimitRaw", long))
	_, err := Sacct(strings.NewReader(in), Options{Strict: true})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 3 || pe.Field != "TimelimitRaw" || len(pe.Value) > 64 {
		t.Fatalf("strict: %v", err)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, `convert: sacct line 3, field TimelimitRaw: "xxx`) || len(msg) > 160 {
		t.Errorf("message %q", msg)
	}
	// Lenient (the default): the job is kept, the field -1, the error kept and counted.
	res, err := Sacct(strings.NewReader(in), Options{})
	if err != nil || len(res.Jobs) != 2 || res.Jobs[1].ReqTime != -1 || res.Report.Anomalies["unreadable TimelimitRaw"] != 1 ||
		len(res.Report.Errors) != 1 || res.Report.Errors[0].Line != 3 {
		t.Errorf("lenient: %v %+v", err, res.Report)
	}
}

func TestHeaderRequired(t *testing.T) {
	for _, in := range []string{
		// (an empty input is a FormatError saying so: TestEmptyInputSaysEmpty)
		sacctLine(good("1")), // --noheader output: the first line is a job
		"JobID|State\n1|COMPLETED\n",
		"JobID,State,Submit\n",
	} {
		_, err := Sacct(strings.NewReader(strings.ReplaceAll(in, ",", ",")), Options{})
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line < 1 {
			t.Errorf("%.40q: %v, want a ParseError naming the line", in, err)
		}
	}
}

func TestMaxErrors(t *testing.T) {
	in := strings.ReplaceAll(SacctFormat, ",", "|") + "\n" + sacctLine(good("1")) + strings.Repeat("junk\n", 50)
	res, err := Sacct(strings.NewReader(in), Options{MaxErrors: 3})
	if err != nil || len(res.Report.Errors) != 3 || res.Report.Skipped[skipMalformed] != 50 {
		t.Errorf("%v %+v", err, res.Report)
	}
}

// An input of which no record can be read is a FormatError, not a Result
// of 0 jobs (issue 30).
func TestNothingReadable(t *testing.T) {
	in := strings.ReplaceAll(SacctFormat, ",", "|") + "\n" + strings.Repeat("junk\n", 50)
	_, err := Sacct(strings.NewReader(in), Options{MaxErrors: 3})
	var fe *FormatError
	if !errors.As(err, &fe) || fe.Want != "sacct" || fe.Saw != "" {
		t.Errorf("%v, want a FormatError", err)
	}
	// Every record skipped for a reason other than being unreadable is
	// a valid conversion of 0 jobs.
	in = strings.ReplaceAll(SacctFormat, ",", "|") + "\n" + sacctLine(with(good("1"), "State", "RUNNING"))
	if res, err := Sacct(strings.NewReader(in), Options{}); err != nil || res.Report.Jobs != 0 {
		t.Errorf("%v %+v", err, res)
	}
}

func TestLongLine(t *testing.T) {
	in := strings.ReplaceAll(SacctFormat, ",", "|") + "\n" + strings.Repeat("y", maxLine+10) + "\n" + sacctLine(good("1"))
	res, err := Sacct(strings.NewReader(in), Options{})
	if err != nil || len(res.Jobs) != 1 || res.Report.Skipped[skipMalformed] != 1 || res.Report.Errors[0].Line != 2 {
		t.Errorf("%v %+v", err, res.Report)
	}
	for name, conv := range map[string]converter{"jobcomp": Jobcomp, "pbs": PBS} {
		// Nothing readable: a FormatError.
		_, err := conv(strings.NewReader(strings.Repeat("z", maxLine*2)), Options{})
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Want != name || len(fe.Sample) > 64 {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestJSONErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`[1,2]`, `the input is JSON of another kind, not sacct --json output`},
		{`{"meta": {}}`, `the input is JSON of another kind`},
		{`{"jobs": {}}`, `"jobs" is not a list`},
		{"{\"jobs\": [\n{\"job_id\": 1},\n{\"job_id\": 2,,}]}", "sacct-json line 3:"},
	} {
		_, err := SacctJSON(strings.NewReader(c.in), Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.in, err, c.want)
		}
	}
	// A wrongly typed field skips its job, names the line and the field, and
	// reading goes on.
	in := "{\"jobs\": [\n{\"job_id\": 1, \"state\": {\"current\": \"COMPLETED\"}, \"time\": {\"submission\": 1700000000}},\n" +
		"{\"job_id\": 2,\n \"time\": {\"limit\": true}},\n{\"job_id\": 3, \"name\": [1]}]}"
	res, err := SacctJSON(strings.NewReader(in), Options{})
	if err != nil || res.Report.Skipped[skipMalformed] != 2 || len(res.Jobs) != 1 {
		t.Fatalf("%v %+v", err, res)
	}
	e := res.Report.Errors[0]
	if e.Line != 3 || e.Field != "time.limit" {
		t.Errorf("error %v: line %d field %q, want 3 time.limit", e, e.Line, e.Field)
	}
	if _, err := SacctJSON(strings.NewReader(in), Options{Strict: true}); err == nil {
		t.Error("strict mode accepted a wrongly typed field")
	}
	// Errors name JSON's kinds, never a Go type (issue 30: a number where
	// sacct writes an object printed "struct { Status convert.jsonState ...").
	in = "{\"jobs\": [{\"job_id\": 1, \"state\": \"COMPLETED\", \"time\": {\"submission\": 1700000000}},\n{\"job_id\": 2, \"exit_code\": 5}]}"
	res, err = SacctJSON(strings.NewReader(in), Options{})
	if err != nil || len(res.Report.Errors) != 1 {
		t.Fatalf("%v %+v", err, res)
	}
	if msg := res.Report.Errors[0].Error(); strings.Contains(msg, "struct") || !strings.Contains(msg, "a JSON number, want an object") {
		t.Errorf("message %q", msg)
	}
}

func TestPartitionLimits(t *testing.T) {
	in := strings.ReplaceAll(SacctFormat, ",", "|") + "\n" + sacctLine(with(good("1"), "TimelimitRaw", "Partition_Limit")) +
		sacctLine(with(with(good("2"), "TimelimitRaw", "Partition_Limit"), "Partition", "other"))
	res, err := Sacct(strings.NewReader(in), Options{PartitionLimits: map[string]int64{"p": 7200}})
	if err != nil || res.Jobs[0].ReqTime != 7200 || res.Jobs[1].ReqTime != -1 ||
		res.Report.Anomalies[notePartLimitUsed] != 1 || res.Report.Anomalies[notePartLimit] != 1 {
		t.Errorf("%v %+v %+v", err, res.Jobs, res.Report)
	}
}

func TestHideNames(t *testing.T) {
	res := convertFile(t, "sacct", "testdata/sacct-parsable2.txt", Options{HideNames: true})
	if len(res.Header.Other) != 0 || len(res.Header.Queue) != 3 || res.Jobs[0].User != 1 {
		t.Errorf("%+v", res.Header)
	}
}

func TestLocation(t *testing.T) {
	// The same local clock reading in UTC+1 is an hour earlier in UTC.
	in := strings.ReplaceAll(SacctFormat, ",", "|") + "\n" + sacctLine(good("1"))
	utc, _ := Sacct(strings.NewReader(in), Options{})
	cet, _ := Sacct(strings.NewReader(in), Options{Location: time.FixedZone("CET", 3600)})
	if cet.Header.UnixStartTime != utc.Header.UnixStartTime-3600 || cet.Header.TimeZone != 3600 ||
		cet.Header.TimeZoneString != "CET" || cet.Header.StartTime != "Fri Mar 01 08:00:00 CET 2024" {
		t.Errorf("%+v\n%+v", utc.Header, cet.Header)
	}
}

func TestIDReuse(t *testing.T) {
	// A raw id after a final state is a new job (Slurm ids wrap), noted.
	in := strings.ReplaceAll(SacctFormat, ",", "|") + "\n" + sacctLine(good("7")) +
		sacctLine(with(with(with(good("7"), "Submit", "2024-06-01T00:00:00"), "Start", "2024-06-01T00:00:01"), "End", "2024-06-01T00:00:02"))
	res, err := Sacct(strings.NewReader(in), Options{})
	if err != nil || len(res.Jobs) != 2 || res.Report.Requeued != 0 || res.Report.Anomalies[noteIDReused] != 1 {
		t.Errorf("%v %+v", err, res.Report)
	}
}

func TestValidate(t *testing.T) {
	for _, o := range []Options{{MaxErrors: -1}, {MaxProcs: -5}, {PartitionLimits: map[string]int64{"a": 0}}} {
		if o.Validate() == nil {
			t.Errorf("%+v accepted", o)
		}
		if _, err := Sacct(strings.NewReader(""), o); err == nil {
			t.Errorf("%+v: Sacct accepted it", o)
		}
	}
	if err := (&Options{}).Validate(); err != nil {
		t.Error(err)
	}
}

func TestConcatenated(t *testing.T) {
	// Two sacct outputs, the second with its columns in another order.
	head := strings.ReplaceAll(SacctFormat, ",", "|")
	cols := strings.Split(head, "|")
	line := strings.Split(strings.TrimSuffix(sacctLine(good("2")), "\n"), "|")
	for i, j := 0, len(cols)-1; i < j; i, j = i+1, j-1 {
		cols[i], cols[j] = cols[j], cols[i]
		line[i], line[j] = line[j], line[i]
	}
	in := head + "\n" + sacctLine(good("1")) + strings.Join(cols, "|") + "\n" + strings.Join(line, "|") + "\n"
	res, err := Sacct(strings.NewReader(in), Options{})
	if err != nil || len(res.Jobs) != 2 || res.Jobs[1].ReqTime != 300 || res.Report.Records != 2 || len(res.Report.Notes) != 1 {
		t.Errorf("%v %+v %+v", err, res.Jobs, res.Report)
	}
	// Two JSON documents are not one log.
	doc := `{"jobs": []}`
	if _, err := SacctJSON(strings.NewReader(doc+doc), Options{}); err == nil || !strings.Contains(err.Error(), "more after") {
		t.Errorf("two JSON documents: %v", err)
	}
}
