package convert

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestPBSRepeatedHour: a PBS job whose times come from its records' local
// time stamps (no ctime, start or end attributes) in the hour a
// daylight-saving change repeats is settled as the Slurm readers' are
// (dst.go): the one choice with submit <= start <= end is taken, noted.
// time.ParseInLocation took the earlier moment in New York and the later
// in Paris, and the job ended "before its start" (run time -1) without a
// word. A job with its epoch attributes (10) is one moment each, left as
// it is, not noted.
func TestPBSRepeatedHour(t *testing.T) {
	job := func(id, day, q, s, e, attrs string) string {
		return day + " " + q + ";Q;" + id + ";queue=batch\n" +
			day + " " + s + ";S;" + id + ";user=u group=g queue=batch exec_host=n1/0\n" +
			day + " " + e + ";E;" + id + ";user=u group=g queue=batch exec_host=n1/0 " + attrs +
			"Resource_List.walltime=01:00:00 resources_used.walltime=00:15:00 Exit_status=0\n"
	}
	for _, c := range []struct {
		zone, day, q, s, e string
	}{
		// 01:10 is EST (the second 01:10), after a start at 01:55 EDT.
		{"America/New_York", "11/03/2024", "01:50:00", "01:55:00", "01:10:00"},
		// 02:45 and 02:50 are CEST (the first), 02:05 CET.
		{"Europe/Paris", "10/27/2024", "02:45:00", "02:50:00", "02:05:00"},
	} {
		loc, err := time.LoadLocation(c.zone)
		if err != nil {
			t.Skip(err)
		}
		in := job("1.srv", c.day, c.q, c.s, c.e, "")
		// Job 10 gives its times as epoch seconds: those of job 1 as
		// read (the repeated hour's choice of ParseInLocation).
		at := func(clock string) string {
			v, err := time.ParseInLocation("01/02/2006 15:04:05", c.day+" "+clock, loc)
			if err != nil {
				t.Fatal(err)
			}
			return strconv.FormatInt(v.Unix(), 10)
		}
		in += job("10.srv", c.day, c.q, c.s, c.e, "ctime="+at(c.q)+" start="+at(c.s)+" end="+at(c.e)+" ")
		res, err := PBS(strings.NewReader(in), Options{Location: loc})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Jobs) != 2 || res.IDs[0] != "1.srv" {
			t.Fatalf("%s: jobs %v, report %+v", c.zone, res.IDs, res.Report)
		}
		if j := res.Jobs[0]; j.Wait != 300 || j.RunTime != 900 {
			t.Errorf("%s: job 1: wait %d run %d, want 300, 900", c.zone, j.Wait, j.RunTime)
		}
		if j := res.Jobs[1]; j.RunTime != -1 {
			t.Errorf("%s: job 10 (epoch attributes): run %d, want -1 (its end before its start, as given)", c.zone, j.RunTime)
		}
		if n := res.Report.Anomalies[noteRepeatedHourTold]; n != 1 {
			t.Errorf("%s: anomalies %v, want 1 %q", c.zone, res.Report.Anomalies, noteRepeatedHourTold)
		}
	}
}

// TestPBSSkippedHour: a record's wall clock the zone never shows (02:30
// on the night New York's clocks go forward), which ParseInLocation moved
// an hour without a word, is noted as the Slurm readers note it.
func TestPBSSkippedHour(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip(err)
	}
	in := "03/10/2024 01:50:00;Q;1.srv;queue=batch\n" +
		"03/10/2024 02:30:00;S;1.srv;user=u group=g queue=batch exec_host=n1/0\n" +
		"03/10/2024 03:40:00;E;1.srv;user=u group=g queue=batch exec_host=n1/0 Exit_status=0\n"
	res, err := PBS(strings.NewReader(in), Options{Location: ny})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 1 || res.Report.Anomalies[noteSkippedHour] != 1 {
		t.Errorf("jobs %v, anomalies %v, want 1 %q", res.IDs, res.Report.Anomalies, noteSkippedHour)
	}
}
