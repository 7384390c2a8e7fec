package convert

import (
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// TestPBSRecordsTwice: a job's records seen twice, as logs of days that
// overlap concatenated give them (the second copy starting anywhere in
// the job's records), or as a rerun writes them, and an E record after
// the D record of a job deleted while queued (Q, D, E). Job 1 is deleted
// while running (Q, S, D, E). Each case is one job, its times those of
// the whole log, every record given again counted. Before, an E record
// after the job was filed at its D record was a second job ("job id
// reused", written twice), and so was the job filed at its D record
// without its E record (the copy cut between them) once the next copy
// came; an S record given again was a rerun; a rerun that entered its
// queue again (an R, then a Q record: PBS Pro writes one each time a job
// enters a queue) was an overlapping dump's unfinished record, its rerun
// not counted. The same id with another submit is still a second job.
func TestPBSRecordsTwice(t *testing.T) {
	const a = "user=u group=g queue=q ctime=1711965600 qtime=1711965600 exec_host=n1/0-3 Resource_List.walltime=01:00:00"
	q := "04/01/2024 10:00:00;Q;1.srv;queue=q\n"
	s := "04/01/2024 10:00:05;S;1.srv;" + a + " start=1711965605\n"
	d := "04/01/2024 10:00:50;D;1.srv;requestor=u@h\n"
	e := "04/01/2024 10:00:51;E;1.srv;" + a + " start=1711965605 end=1711965651 Exit_status=271\n"
	r := "04/01/2024 10:00:06;R;1.srv;requestor=root@h\n"
	q2 := "04/01/2024 10:00:07;Q;1.srv;queue=q\n"
	s2 := "04/01/2024 10:00:10;S;1.srv;" + a + " start=1711965610\n"
	e2 := "04/01/2024 10:00:51;E;1.srv;" + a + " start=1711965610 end=1711965651 Exit_status=0\n"
	// Job 1 again, months later: the id reused (Torque's ids wrap).
	const b = "user=u group=g queue=q ctime=1720000000 qtime=1720000000 exec_host=n1/0-3 Resource_List.walltime=01:00:00"
	qb := "07/03/2024 09:46:40;Q;1.srv;queue=q\n"
	sb := "07/03/2024 09:46:45;S;1.srv;" + b + " start=1720000005\n"
	eb := "07/03/2024 09:47:00;E;1.srv;" + b + " start=1720000005 end=1720000020 Exit_status=0\n"
	for _, c := range []struct {
		name     string
		in       string
		jobs     int
		status   swf.Status
		run      int64
		requeued int
		skipped  map[string]int
		idReused int
	}{
		{"E again", q + s + d + e + e, 1, swf.StatusCancelled, 46, 0, map[string]int{skipDuplicate: 1}, 0},
		{"D and E again", q + s + d + e + d + e, 1, swf.StatusCancelled, 46, 0, map[string]int{skipDuplicate: 1, skipAfterEnd: 1}, 0},
		{"cut between D and E", q + s + d + q + s + d + e, 1, swf.StatusCancelled, 46, 0, map[string]int{skipSuperseded: 1}, 0},
		{"Q, D, E", q + d + "04/01/2024 10:00:51;E;1.srv;user=u group=g queue=q ctime=1711965600 qtime=1711965600 end=1711965651 Exit_status=-3\n",
			1, swf.StatusCancelled, -1, 0, map[string]int{skipAfterEnd: 1}, 0},
		{"S again", q + s + s + e, 1, swf.StatusFailed, 46, 0, map[string]int{}, 0},
		{"rerun queued again", q + s + r + q2 + s2 + e2, 1, swf.StatusCompleted, 41, 1, map[string]int{"rerun record (counted at the next start)": 1}, 0},
		{"rerun, both starts again", q + s + r + q2 + s2 + s + r + q2 + s2 + e2, 1, swf.StatusCompleted, 41, 1,
			map[string]int{"rerun record (counted at the next start)": 2}, 0},
		{"rerun cut between D and E", q + s + r + s2 + d + q + s + r + s2 + d + e2, 1, swf.StatusCancelled, 41, 1,
			map[string]int{skipSuperseded: 1, "rerun record (counted at the next start)": 2}, 0},
		{"id reused after D", q + s + d + qb + sb + eb, 2, swf.StatusCancelled, 45, 0, map[string]int{}, 1},
	} {
		res, err := PBS(strings.NewReader(c.in), Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		rep := res.Report
		if len(res.Jobs) != c.jobs || rep.Requeued != c.requeued || rep.Anomalies[noteIDReused] != c.idReused {
			t.Errorf("%s: %d jobs, %d requeued, anomalies %v; want %d, %d, %d reused", c.name, len(res.Jobs), rep.Requeued, rep.Anomalies, c.jobs, c.requeued, c.idReused)
			continue
		}
		if j := res.Jobs[0]; j.Status != c.status || j.RunTime != c.run {
			t.Errorf("%s: status %d run time %d, want %d %d", c.name, j.Status, j.RunTime, c.status, c.run)
		}
		checkCounts(t, c.name+" skipped", rep.Skipped, c.skipped)
	}
}
