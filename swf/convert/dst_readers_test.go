package convert

import (
	"strings"
	"testing"
	"time"
)

// The GPU traces (Helios, Philly), the job tables (ALCF's) and scontrol's
// queue snapshots read local wall clocks as sacct does: a job that ran
// across the hour New York repeats (2024-11-03, 01:55 EDT to 01:05 EST)
// is told by submit ≤ start ≤ end (and the duration where there is one),
// not "end before start"; a time in the hour skipped (2024-03-10 02:30)
// is noted. Each failed without the fix: run time -1 or an hour off, no
// note.
func TestRepeatedHourOtherReaders(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no time zone data:", err)
	}
	opt := Options{Location: ny}
	check := func(name string, res *Result, err error, run, wait int64, note string) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(res.Jobs) != 1 {
			t.Fatalf("%s: %d jobs", name, len(res.Jobs))
		}
		if j := res.Jobs[0]; j.RunTime != run || j.Wait != wait || res.Report.Anomalies[note] != 1 {
			t.Errorf("%s: wait %d, run %d, anomalies %v; want %d, %d, %q", name, j.Wait, j.RunTime,
				res.Report.Anomalies, wait, run, note)
		}
	}
	helios := "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration\n" +
		"1,u,v,1,1,1,COMPLETED,2024-11-03 01:50:00,2024-11-03 01:55:00,2024-11-03 01:05:00,600\n"
	res, err := GPUTrace(strings.NewReader(helios), opt)
	check("helios", res, err, 600, 300, noteRepeatedHourTold)

	philly := `[{"status":"Pass","vc":"v","jobid":"a_1","user":"u","submitted_time":"2024-11-03 00:50:00",
"attempts":[{"start_time":"2024-11-03 01:55:00","end_time":"2024-11-03 01:05:00","detail":[{"ip":"m","gpus":["gpu0"]}]}]}]`
	res, err = GPUTrace(strings.NewReader(philly), opt)
	check("philly", res, err, 600, 3900, noteRepeatedHourTold)

	alcf := "JOB_NAME,COBALT_JOBID,QUEUED_TIMESTAMP,START_TIMESTAMP,END_TIMESTAMP,USERNAME_GENID,QUEUE_NAME,WALLTIME_SECONDS,RUNTIME_SECONDS,CORES_USED\n" +
		"1.t,1,2024-11-03 01:50:00,2024-11-03 01:55:00.000,2024-11-03 01:05:00,U,q,3600,600,8\n"
	res, err = GPUTrace(strings.NewReader(alcf), opt)
	check("alcf", res, err, 600, 300, noteRepeatedHourTold)

	skipped := strings.ReplaceAll(strings.ReplaceAll(helios, "2024-11-03 01:55:00", "2024-03-10 02:30:00"), "2024-11-03", "2024-03-10")
	res, err = GPUTrace(strings.NewReader(skipped), opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Report.Anomalies[noteSkippedHour] != 1 {
		t.Errorf("helios skipped hour: anomalies %v", res.Report.Anomalies)
	}

	// scontrol: submitted 01:50 EDT, started 01:10 EST (an expected end
	// at 02:10), which read as EDT started before its submit.
	sc := "JobId=7 JobName=x UserId=u(1) JobState=RUNNING RunTime=00:10:00 Partition=p TimeLimit=01:00:00 NumCPUs=1 " +
		"SubmitTime=2024-11-03T01:50:00 StartTime=2024-11-03T01:10:00 EndTime=2024-11-03T02:10:00\n"
	snap, err := QueueSnapshot(strings.NewReader(sc), Options{Location: ny, Now: time.Date(2024, 11, 3, 7, 20, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Running) != 1 || snap.Running[0].Start-snap.Running[0].Submit != 1200 ||
		snap.Report.Anomalies[noteRepeatedHourTold] != 1 {
		t.Errorf("scontrol: %+v, anomalies %v; want a wait of 1200 s, told", snap.Running, snap.Report.Anomalies)
	}

	// jobcomp without SubmitTime (before Slurm 15.08): the submit from
	// EligibleTime is settled with the others.
	jc := "JobId=5 UserId=a(1) GroupId=g(1) Name=x JobState=COMPLETED Partition=p TimeLimit=10 " +
		"StartTime=2024-11-03T01:10:00 EndTime=2024-11-03T01:20:00 NodeList=n1 NodeCnt=1 ProcCnt=1 " +
		"EligibleTime=2024-11-03T01:50:00 DerivedExitCode=0:0 ExitCode=0:0\n"
	res, err = Jobcomp(strings.NewReader(jc), opt)
	check("jobcomp EligibleTime", res, err, 600, 1200, noteRepeatedHourTold)
}
