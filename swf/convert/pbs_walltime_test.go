package convert

import (
	"strings"
	"testing"
)

// TestPBSStartFromWalltime: an E record without a start (start=0 or
// none, its S record in a log file not given) of a job that ran takes its
// start from its end less resources_used.walltime, noted; it was "ended
// without starting", wait and run time -1, and the walltime kill (-11)
// of job 7 also "killed at its time limit". A wall time longer than the
// time since the submit gives a start before it (job 8, noted so, as
// any). Without a wall time (job 9), or with an unreadable one (job 10),
// the start stays unknown.
func TestPBSStartFromWalltime(t *testing.T) {
	in := "04/01/2024 10:55:00;E;7.srv;user=u ctime=1711968000 qtime=1711968000 start=0 end=1711968900 Exit_status=-11 exec_host=n1/0+n2/0 resources_used.walltime=00:10:00\n" +
		"04/01/2024 10:56:00;E;8.srv;user=u ctime=1711968000 end=1711968960 Exit_status=0 exec_host=n1/0 resources_used.walltime=1:00:00:00\n" +
		"04/01/2024 10:57:00;E;9.srv;user=u ctime=1711968000 end=1711969020 Exit_status=0 exec_host=n1/0\n" +
		"04/01/2024 10:58:00;E;10.srv;user=u ctime=1711968000 end=1711969080 Exit_status=0 exec_host=n1/0 resources_used.walltime=9999999999\n"
	res, err := PBS(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	type got struct{ wait, run, alloc int64 }
	want := []got{{300, 600, 2}, {-1, 86400, 1}, {-1, -1, -1}, {-1, -1, -1}}
	if len(res.Jobs) != len(want) {
		t.Fatalf("%d jobs, want %d", len(res.Jobs), len(want))
	}
	for k, j := range res.Jobs {
		if (got{j.Wait, j.RunTime, j.AllocProcs}) != want[k] {
			t.Errorf("job %s: wait %d run %d allocated %d, want %+v", res.IDs[k], j.Wait, j.RunTime, j.AllocProcs, want[k])
		}
	}
	checkCounts(t, "anomalies", res.Report.Anomalies, map[string]int{noteStartWalltime: 2, noteTimeout: 1,
		noteStartBefore: 1, noteNeverStarted: 2, noteNoLimit: 4, "unreadable resources_used.walltime": 1})
}

// TestPBSWalltimeNoSign: an E record without a start whose wall time is 0
// and that has no exec_host shows nothing of a run: it never started (job
// 1), not a job started at its end, its stay in the queue a wait of 900 s;
// with exec_host it ran for less than a second (job 2). A wall time that
// puts the start before 1990 (job 3, 114 years) is unreadable and counted:
// it was dropped without a word, the job "ended without starting".
func TestPBSWalltimeNoSign(t *testing.T) {
	in := "04/01/2024 10:55:00;E;1.srv;user=u ctime=1711968000 start=0 end=1711968900 Exit_status=0 resources_used.walltime=00:00:00\n" +
		"04/01/2024 10:56:00;E;2.srv;user=u ctime=1711968000 start=0 end=1711968960 Exit_status=0 exec_host=n1/0 resources_used.walltime=00:00:00\n" +
		"04/01/2024 10:57:00;E;3.srv;user=u ctime=1711968000 end=1711969020 Exit_status=0 exec_host=n1/0 resources_used.walltime=1000000:00:00\n"
	res, err := PBS(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	type got struct{ wait, run int64 }
	want := []got{{-1, -1}, {960, 0}, {-1, -1}}
	if len(res.Jobs) != len(want) {
		t.Fatalf("%d jobs, want %d", len(res.Jobs), len(want))
	}
	for k, j := range res.Jobs {
		if (got{j.Wait, j.RunTime}) != want[k] {
			t.Errorf("job %s: wait %d run %d, want %+v", res.IDs[k], j.Wait, j.RunTime, want[k])
		}
	}
	checkCounts(t, "anomalies", res.Report.Anomalies, map[string]int{noteStartWalltime: 1, noteNeverStarted: 2,
		noteNoLimit: 3, "unreadable resources_used.walltime": 1})
	if len(res.Report.Errors) != 1 || res.Report.Errors[0].Field != "resources_used.walltime" {
		t.Errorf("errors %v", res.Report.Errors)
	}
}
