package convert

import (
	"strings"
	"testing"
	"time"
)

// jobcompLine is a jobcomp/filetxt record as Slurm's JOB_FORMAT prints
// it (src/plugins/jobcomp/filetxt/jobcomp_filetxt.c), made-up values.
func jobcompLine(id, state, start, end, nodes, procs, submit string) string {
	return "JobId=" + id + " UserId=ana(1000) GroupId=lab(100) Name=x JobState=" + state +
		" Partition=cpu TimeLimit=60 StartTime=" + start + " EndTime=" + end + " NodeList=n1 NodeCnt=" + nodes +
		" ProcCnt=" + procs + " WorkDir=unknown ReservationName= Tres=cpu=" + procs + ",node=" + nodes +
		" Account=lab QOS=normal WcKey= Cluster=c1 SubmitTime=" + submit + " EligibleTime=" + submit +
		" DerivedExitCode=0:0 ExitCode=0:0 \n"
}

// TestJobcompResized: a job that changed size (scontrol update NumNodes)
// is logged ending RESIZING at the resize, then again at its end with
// StartTime the resize's: it was written waiting until the resize (300 s
// here, not 10) and running from there.
func TestJobcompResized(t *testing.T) {
	in := jobcompLine("12", "RESIZING", "2025-03-01T10:00:10", "2025-03-01T10:05:00", "2", "8", "2025-03-01T10:00:00") +
		jobcompLine("12", "COMPLETED", "2025-03-01T10:05:00", "2025-03-01T10:20:00", "1", "4", "2025-03-01T10:00:00")
	res, err := Jobcomp(strings.NewReader(in), Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 1 {
		t.Fatalf("%d jobs, want 1", len(res.Jobs))
	}
	if j := res.Jobs[0]; j.Wait != 10 || j.RunTime != 1190 || j.AllocProcs != 4 {
		t.Errorf("wait %d run %d procs %d, want 10 1190 4", j.Wait, j.RunTime, j.AllocProcs)
	}
	if res.Report.Skipped[skipResized] != 1 {
		t.Errorf("skipped %v, want 1 %q", res.Report.Skipped, skipResized)
	}
	if res.Report.Anomalies[noteResized] != 1 {
		t.Errorf("anomalies %v, want %q", res.Report.Anomalies, noteResized)
	}
	// The final record listed again (overlapping dumps) is still that
	// record, not a second job of the id.
	res, err = Jobcomp(strings.NewReader(in+in[strings.Index(in, "\n")+1:]), Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 1 || res.Report.Skipped[skipDuplicate] != 1 {
		t.Errorf("given again: %d jobs, skipped %v", len(res.Jobs), res.Report.Skipped)
	}
}

// TestJobcompUnknownSubmit: jobcomp/filetxt writes "unknown" (lower
// case) for a job without a submit or eligible time; it was an
// unreadable field (an error, and the end of a -strict run), not the
// missing time it is.
func TestJobcompUnknownSubmit(t *testing.T) {
	in := jobcompLine("7", "COMPLETED", "2025-03-01T10:00:10", "2025-03-01T10:05:00", "1", "2", "unknown")
	res, err := Jobcomp(strings.NewReader(in+jobcompLine("8", "COMPLETED", "2025-03-01T10:00:10",
		"2025-03-01T10:05:00", "1", "2", "2025-03-01T10:00:00")), Options{Strict: true, Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Report.Errors) != 0 || res.Report.Skipped[skipNoSubmit] != 1 || len(res.Jobs) != 1 {
		t.Errorf("errors %v, skipped %v, %d jobs", res.Report.Errors, res.Report.Skipped, len(res.Jobs))
	}
}
