package convert

import (
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Dumps of windows that overlap (daily sacct runs list the jobs running
// across midnight in both), or one file given twice: a record listed again
// is skipped and counted, not a second job ("job id reused") nor, for a
// requeued job, its earlier attempt's successor (the job written twice),
// and its steps do not add their CPU time again. (PBS: a log given twice,
// its reruns counted once.)
func TestOverlappingDumps(t *testing.T) {
	const steps = "JobID|JobIDRaw|State|Submit|Start|End|AllocCPUS|TotalCPU|NTasks\n" +
		"7|7|COMPLETED|2024-03-01T08:00:00|2024-03-01T08:01:00|2024-03-01T09:01:00|2|00:00:00|\n" +
		"7.batch|7.batch|COMPLETED|2024-03-01T08:01:00|2024-03-01T08:01:00|2024-03-01T09:01:00|2|00:10:00|1\n" +
		"7.0|7.0|COMPLETED|2024-03-01T08:01:00|2024-03-01T08:01:00|2024-03-01T09:01:00|2|00:20:00|2\n"
	for _, c := range []struct {
		name string
		conv func(string) (*Result, error)
		text string
	}{
		{"sacct", func(s string) (*Result, error) { return Sacct(strings.NewReader(s), Options{}) }, read(t, "testdata/sacct-parsable2.txt")},
		{"sacct steps", func(s string) (*Result, error) { return Sacct(strings.NewReader(s), Options{}) }, steps},
		{"jobcomp", func(s string) (*Result, error) { return Jobcomp(strings.NewReader(s), Options{}) }, read(t, "testdata/jobcomp.txt")},
		{"pbs", func(s string) (*Result, error) { return PBS(strings.NewReader(s), Options{}) }, read(t, "testdata/pbs-torque.log")},
	} {
		once, err := c.conv(c.text)
		if err != nil {
			t.Fatal(err)
		}
		twice, err := c.conv(c.text + c.text)
		if err != nil {
			t.Fatal(err)
		}
		r1, r2 := once.Report, twice.Report
		if !reflect.DeepEqual(twice.Jobs, once.Jobs) || !slices.Equal(twice.IDs, once.IDs) || r2.Requeued != r1.Requeued ||
			!maps.Equal(r2.States, r1.States) || r2.Anomalies[noteIDReused] != r1.Anomalies[noteIDReused] {
			t.Errorf("%s twice: %d jobs, %d requeued, states %v, anomalies %v; want those of once: %d, %d, %v, %v",
				c.name, r2.Jobs, r2.Requeued, r2.States, r2.Anomalies, r1.Jobs, r1.Requeued, r1.States, r1.Anomalies)
		}
		if r2.Skipped["record listed again (overlapping dumps)"] == 0 {
			t.Errorf("%s twice: skipped %v, want the records listed again counted", c.name, r2.Skipped)
		}
		if c.name != "pbs" {
			sum := r2.Jobs + r2.Steps + r2.Requeued
			for _, n := range r2.Skipped {
				sum += n
			}
			if sum != r2.Records {
				t.Errorf("%s twice: %d records, %d accounted for (%+v)", c.name, r2.Records, sum, r2)
			}
		}
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A job unfinished in one dump and finished in the next (daily dumps, a
// job running across midnight) is the later record, the earlier skipped
// as such: it was counted as an earlier attempt of a requeued job.
func TestUnfinishedThenFinished(t *testing.T) {
	const head = "JobID|JobIDRaw|State|Submit|Start|End|AllocCPUS\n"
	const day1 = head +
		"8|8|RUNNING|2024-03-01T22:00:00|2024-03-01T23:00:00|Unknown|4\n" +
		"9|9|PENDING|2024-03-01T23:30:00|Unknown|Unknown|0\n" +
		"10|10|REQUEUED|2024-03-01T20:00:00|2024-03-01T20:01:00|2024-03-01T21:00:00|4\n"
	const day2 = head +
		"8|8|COMPLETED|2024-03-01T22:00:00|2024-03-01T23:00:00|2024-03-02T01:00:00|4\n" +
		"9|9|COMPLETED|2024-03-01T23:30:00|2024-03-02T00:10:00|2024-03-02T00:20:00|4\n" +
		"10|10|COMPLETED|2024-03-01T21:00:00|2024-03-01T21:05:00|2024-03-02T00:30:00|4\n"
	res, err := Sacct(strings.NewReader(day1+day2), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Report
	if rep.Jobs != 3 || rep.Requeued != 1 || rep.Skipped["unfinished, a later record of the job follows (overlapping dumps)"] != 2 || len(rep.Anomalies) != 0 {
		t.Errorf("%d jobs, %d requeued, skipped %v, anomalies %v; want 3 jobs, 1 requeued (job 10), 2 skipped as unfinished then finished",
			rep.Jobs, rep.Requeued, rep.Skipped, rep.Anomalies)
	}
}

// A PBS log given twice whose job was rerun and still running at its end,
// then the log of the day it ended: one job, one rerun. The first copy's
// record had no submit, so the job written was "job id reused" and that
// record "not finished at dump"; and its rerun was counted for both.
func TestPBSUnfinishedGivenTwice(t *testing.T) {
	const attrs = "user=dave group=bio jobname=chkpt queue=batch ctime=1709281140 qtime=1709281140 etime=1709281140 " +
		"owner=dave@login1 exec_host=n08/0-3 Resource_List.nodes=1:ppn=4 Resource_List.walltime=00:30:00"
	const day1 = "03/01/2024 08:19:00;Q;106.head;queue=batch\n" +
		"03/01/2024 08:20:00;S;106.head;" + attrs + " start=1709281200\n" +
		"03/01/2024 08:25:00;R;106.head;requestor=root@head\n" +
		"03/01/2024 08:26:00;S;106.head;" + attrs + " start=1709281560\n"
	const day2 = "03/02/2024 08:31:05;E;106.head;" + attrs + " start=1709281560 end=1709368265 Exit_status=0\n"
	once, err := PBS(strings.NewReader(day1+day2), Options{})
	if err != nil {
		t.Fatal(err)
	}
	twice, err := PBS(strings.NewReader(day1+day1+day2), Options{})
	if err != nil {
		t.Fatal(err)
	}
	r1, r2 := once.Report, twice.Report
	if r1.Jobs != 1 || r1.Requeued != 1 || !reflect.DeepEqual(twice.Jobs, once.Jobs) || r2.Requeued != 1 || len(r2.Anomalies) != 0 ||
		r2.Skipped[skipSuperseded] != 1 || r2.Skipped[skipUnfinished+" (running)"] != 0 {
		t.Errorf("day 1 twice: %d jobs, %d requeued, skipped %v, anomalies %v; want those of once (%d, %d), the first copy's record superseded",
			r2.Jobs, r2.Requeued, r2.Skipped, r2.Anomalies, r1.Jobs, r1.Requeued)
	}
}
