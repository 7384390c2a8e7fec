package convert

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// An empty input (no byte, or blank lines only) is refused by the logs
// without a header line as by those with one: a *FormatError, never a
// trace of no job with exit 0.
func TestEmptyInputRefusedByEveryFormat(t *testing.T) {
	for name, conv := range map[string]func(string) error{
		"pbs":        func(s string) error { _, err := PBS(strings.NewReader(s), Options{}); return err },
		"jobcomp":    func(s string) error { _, err := Jobcomp(strings.NewReader(s), Options{}); return err },
		"sacct":      func(s string) error { _, err := Sacct(strings.NewReader(s), Options{}); return err },
		"sacct-json": func(s string) error { _, err := SacctJSON(strings.NewReader(s), Options{}); return err },
		"alibaba":    func(s string) error { _, err := Alibaba(strings.NewReader(s), Options{}); return err },
	} {
		for _, in := range []string{"", "\n\n  \n", "\r\n"} {
			err := conv(in)
			if fe := (*FormatError)(nil); err == nil || (name != "sacct" && !errors.As(err, &fe)) {
				t.Errorf("%s %q: %v, want a *FormatError (sacct: its missing header)", name, in, err)
			}
		}
	}
	// One record is enough: an E record of PBS, a jobcomp line.
	if _, err := PBS(strings.NewReader("04/01/2024 10:00:00;E;1.srv;user=u group=g queue=q ctime=1711965600 qtime=1711965600 start=1711965600 end=1711965660 Exit_status=0 Resource_List.walltime=00:10:00 resources_used.walltime=00:01:00 exec_host=n1/0\n"), Options{}); err != nil {
		t.Errorf("pbs, one record: %v", err)
	}
}

// A UTF-8 byte-order mark before the first record changes nothing: the
// same report and jobs as without it, for every format (it made the first
// PBS and jobcomp record malformed, sacct's first column unknown and
// sacct --json "JSON of another kind").
func TestByteOrderMarkIgnored(t *testing.T) {
	for _, c := range []struct {
		file string
		conv func(io.Reader, Options) (*Result, error)
	}{
		{"sacct-parsable2.txt", Sacct}, {"jobcomp.txt", Jobcomp}, {"pbs-torque.log", PBS}, {"sacct-23.11.json", SacctJSON},
	} {
		data, err := os.ReadFile(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		opt := Options{Location: time.UTC}
		plain, err := c.conv(bytes.NewReader(data), opt)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		bom, err := c.conv(bytes.NewReader(append([]byte("\xef\xbb\xbf"), data...)), opt)
		if err != nil {
			t.Errorf("%s with a BOM: %v", c.file, err)
			continue
		}
		if !reflect.DeepEqual(plain.Report, bom.Report) || !reflect.DeepEqual(plain.Jobs, bom.Jobs) {
			t.Errorf("%s: with a BOM\n%+v\nwithout\n%+v", c.file, bom.Report, plain.Report)
		}
	}
}

// A sacct log without a CPU count (no AllocCPUS nor AllocTRES column, or
// an unreadable value) keeps its jobs' wait and run time: the start time
// says the job started, except a cancelled job's equal to its end (Slurm's
// mark of one cancelled while pending). Such jobs used to be written with
// wait and run time -1, "ended without starting". So does one with
// AllocCPUS 0 and no cpu= in AllocTRES (job 10), whose processors are
// unknown; with its start equal to its end (job 11, a job ended while
// pending, as DEADLINE or a FAILED launch) it never started.
func TestSacctStartWithoutCPUs(t *testing.T) {
	in := "JobID|State|Submit|Start|End|AllocCPUS\n" +
		"7|COMPLETED|1704067200|1704067201|1704067209|\n" +
		"8|CANCELLED|1704067200|1704067205|1704067205|\n" +
		"9|CANCELLED by 5|1704067200|1704067202|1704067207|x\n" +
		"10|FAILED|1704067200|1704067203|1704067204|0\n" +
		"11|FAILED|1704067200|1704067205|1704067205|0\n"
	res, err := Sacct(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	type got struct{ wait, run int64 }
	want := []got{{1, 8}, {-1, -1}, {2, 5}, {3, 1}, {-1, -1}}
	for k, j := range res.Jobs {
		if (got{j.Wait, j.RunTime}) != want[k] {
			t.Errorf("job %s: wait %d, run %d, want %+v", res.IDs[k], j.Wait, j.RunTime, want[k])
		}
	}
	if len(res.Jobs) != len(want) || res.Jobs[3].AllocProcs != -1 {
		t.Errorf("%d jobs, want %d; job 10 allocated %d, want -1 (unknown)", len(res.Jobs), len(want), res.Jobs[3].AllocProcs)
	}
	if a := res.Report.Anomalies; a[noteNoAlloc] != 3 || a[noteNeverStarted] != 1 || a[noteCancelledRun] != 1 {
		t.Errorf("anomalies %v", a)
	}
}

// A negative PBS time ("ctime=-1", as SWF writes a missing value) is out
// of range, not "a time after the year 2200" as it was reported.
func TestPBSNegativeTime(t *testing.T) {
	in := "04/01/2024 10:00:00;E;4.srv;user=u ctime=-1 qtime=1711965600 start=-5 end=1711965660 Exit_status=0 exec_host=n1/0\n"
	res, err := PBS(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Report.Errors) != 2 {
		t.Fatalf("errors %v", res.Report.Errors)
	}
	for _, e := range res.Report.Errors {
		if !errors.Is(e, errRange) {
			t.Errorf("%v, want %v", e, errRange)
		}
	}
}

// A state cut to sacct's column width ("OUT_OF_ME+", formatted output)
// is the one state it begins; an ambiguous cut ("REQUEUE_+") and an empty
// state stay unknown, the empty one reported as "none", not as a blank.
func TestSacctCutStates(t *testing.T) {
	for in, want := range map[string]string{"OUT_OF_ME+": "OUT_OF_MEMORY", "CANCELLED+": "CANCELLED", "SPECIAL_E+": "SPECIAL_EXIT",
		"REQUEUE_+": "REQUEUE_", "cancelled by 5": "CANCELLED", "FOO+": "FOO", "+": ""} {
		if got := baseState(in); got != want {
			t.Errorf("baseState(%q) = %q, want %q", in, got, want)
		}
	}
	res, err := Sacct(strings.NewReader("JobID|State|Submit|Start|End|AllocCPUS\n1|OUT_OF_ME+|1704067205|1704067206|1704067209|1\n2||1704067205|1704067206|1704067209|1\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Jobs[0].Status != 0 || res.Report.States["OUT_OF_MEMORY"] != 1 || res.Report.States["none"] != 1 || res.Report.Anomalies[noteUnknownState] != 1 {
		t.Errorf("status %d, states %v, anomalies %v", res.Jobs[0].Status, res.Report.States, res.Report.Anomalies)
	}
}

// An empty input's FormatError says it is empty: it said "the input is not
// a PBS/Torque accounting log (line 0: \"\")", naming a line 0 that no
// input has.
func TestEmptyInputSaysEmpty(t *testing.T) {
	for name, conv := range map[string]func(io.Reader, Options) (*Result, error){
		"pbs": PBS, "jobcomp": Jobcomp, "sacct-json": SacctJSON, "alibaba": Alibaba, "sacct": Sacct,
	} {
		_, err := conv(strings.NewReader("\n \n"), Options{})
		if err == nil || !strings.Contains(err.Error(), "the input is empty") || strings.Contains(err.Error(), "line 0") {
			t.Errorf("%s: %v, want \"the input is empty\" and no line 0", name, err)
		}
	}
}

// A log of the format asked for whose only record is cut says which
// record and why: it said "the input is not sacct --parsable2 output
// (line 1: \"JobID|JobIDRaw|...\")" of sacct's own header.
func TestUnreadableSaysFirstError(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "sacct-parsable2.txt"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Sacct(bytes.NewReader(data[:300]), Options{Location: time.UTC})
	var fe *FormatError
	if !errors.As(err, &fe) || fe.Malformed != 1 || fe.First == nil || fe.First.Line != 2 ||
		!strings.Contains(err.Error(), "none of its 1 records is readable (first: sacct line 2: ") {
		t.Errorf("%v (%+v), want 1 record malformed, the first at line 2", err, fe)
	}
}

// A count past its bound or below 0 is "out of range", not another error:
// TimelimitRaw 99999999999 was "not a number", AllocCPUS -4 "more than
// 16777216 processors".
func TestRangeErrorsSayRange(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "sacct-parsable2.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(string(data), "\n", 3)
	fields := strings.Split(lines[1], "|")
	fields[14], fields[15] = "99999999999", "-4" // TimelimitRaw, AllocCPUS
	res, err := Sacct(strings.NewReader(lines[0]+"\n"+strings.Join(fields, "|")+"\n"), Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range res.Report.Errors {
		got[e.Field] = e.Err.Error()
	}
	if got["TimelimitRaw"] != "value out of range" || got["AllocCPUS"] != "value out of range" {
		t.Errorf("errors %v, want value out of range for TimelimitRaw and AllocCPUS", got)
	}
}

// An input that is not empty says so, even when its first 64 KiB (what
// sniff reads) are blank lines: its records all malformed, it said "the
// input is empty (no line but blank ones)".
func TestBlankHeadNotEmpty(t *testing.T) {
	blank := strings.Repeat("\n", sniffBytes+1)
	for name, conv := range map[string]func(io.Reader, Options) (*Result, error){
		"pbs": PBS, "jobcomp": Jobcomp,
	} {
		_, err := conv(strings.NewReader(blank+"not a record\n"), Options{})
		var fe *FormatError
		if !errors.As(err, &fe) || strings.Contains(err.Error(), "empty") || fe.First == nil {
			t.Errorf("%s: %v, want none of 1 record readable, not empty", name, err)
		}
	}
	if _, err := SacctJSON(strings.NewReader(blank+`{"x": 1}`), Options{}); err == nil || strings.Contains(err.Error(), "empty") {
		t.Errorf("sacct-json: %v, want not sacct --json output, not empty", err)
	}
}

// A time stamp far below zero in slurmrestd's or sacct --json's output (a
// corrupt -9223372036854775808) is out of range, not "a time after the
// year 2200", and a job id past any plausible one is out of range, not
// missing, as the reports said.
func TestJSONNegativeTimeAndHugeID(t *testing.T) {
	rest := `{"jobs":[{"job_id":7,"job_state":"RUNNING","submit_time":1700000000,"start_time":1700000060,"end_time":-9223372036854775808,"cpus":1},` +
		`{"job_id":99999999999999999999,"job_state":"PENDING","submit_time":1700000000}]}`
	snap, err := QueueSnapshot(strings.NewReader(rest), Options{})
	if err != nil {
		t.Fatal(err)
	}
	sacct := `{"jobs":[{"job_id":7,"state":{"current":"COMPLETED"},"time":{"submission":1700000000,"start":1700000060,"end":-9223372036854775808,"elapsed":5}},` +
		`{"job_id":99999999999999999999,"state":{"current":"COMPLETED"},"time":{"submission":1700000000}}]}`
	res, err := SacctJSON(strings.NewReader(sacct), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, errs := range map[string][]*ParseError{"slurmrestd": snap.Report.Errors, "sacct-json": res.Report.Errors} {
		var time, id bool
		for _, e := range errs {
			switch e.Field {
			case "end_time", "time.end":
				time = errors.Is(e, errRange)
			case "job_id":
				id = strings.Contains(e.Error(), "job id out of range")
			}
		}
		if !time || !id {
			t.Errorf("%s: errors %v, want the end time out of range and the job id out of range", name, errs)
		}
	}
}
