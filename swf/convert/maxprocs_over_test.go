package convert

import (
	"strings"
	"testing"
)

// Options.MaxProcs smaller than the log's jobs (a node count given for
// the cores) is said in a note with how many jobs are larger and the
// largest: the trace was written without a word, and a simulation then
// rejected those jobs. A MaxProcs that holds every job says nothing.
func TestMaxProcsSmallerThanJobsNoted(t *testing.T) {
	in := "JobID|State|Submit|Start|End|AllocCPUS|ReqCPUS\n" +
		"1|COMPLETED|1704067200|1704067260|1704067320|8|8\n" +
		"2|COMPLETED|1704067200|1704067260|1704067320|2|16\n" +
		"3|COMPLETED|1704067200|1704067260|1704067320|4|4\n"
	res, err := Sacct(strings.NewReader(in), Options{MaxProcs: 4})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, n := range res.Report.Notes {
		found = found || strings.HasPrefix(n, "2 jobs allocated or asked more processors than MaxProcs 4 (the largest 16)")
	}
	if !found {
		t.Errorf("notes %q", res.Report.Notes)
	}
	if res, err = Sacct(strings.NewReader(in), Options{MaxProcs: 16}); err != nil {
		t.Fatal(err)
	}
	for _, n := range res.Report.Notes {
		if strings.Contains(n, "than MaxProcs") {
			t.Errorf("MaxProcs 16: %q", n)
		}
	}
}

// The Alibaba, GPU-trace and snapshot readers, which make their jobs and
// headers apart from the builder's, give the same note (they gave none).
func TestMaxProcsSmallerThanJobsNotedOtherReaders(t *testing.T) {
	noted := func(name string, notes []string, want string) {
		t.Helper()
		found := false
		for _, n := range notes {
			found = found || strings.HasPrefix(n, want)
		}
		if !found {
			t.Errorf("%s: notes %q, want one starting %q", name, notes, want)
		}
	}
	pods := podHeader + "\np1,8000,10,0,0,,LS,Succeeded,0,100,5\np2,2000,10,0,0,,LS,Succeeded,1,100,5\n"
	res, err := Alibaba(strings.NewReader(pods), Options{MaxProcs: 4000})
	if err != nil {
		t.Fatal(err)
	}
	noted("alibaba", res.Report.Notes, "1 jobs allocated or asked more processors than MaxProcs 4000 (the largest 8000)")

	helios := "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration\n" +
		"1,u,v,16,1,2,COMPLETED,2024-01-01 00:00:00,2024-01-01 00:01:00,2024-01-01 00:11:00,600\n" +
		"2,u,v,1,1,1,COMPLETED,2024-01-01 00:00:00,2024-01-01 00:01:00,2024-01-01 00:11:00,600\n"
	if res, err = GPUTrace(strings.NewReader(helios), Options{MaxProcs: 8}); err != nil {
		t.Fatal(err)
	}
	noted("helios", res.Report.Notes, "1 jobs allocated or asked more processors than MaxProcs 8 (the largest 16)")

	sc := "JobId=7 JobName=x UserId=u(1) JobState=RUNNING RunTime=00:10:00 Partition=p TimeLimit=01:00:00 NumCPUs=64 " +
		"SubmitTime=1704067200 StartTime=1704067260 EndTime=1704070860\n" +
		"JobId=8 JobName=x UserId=u(1) JobState=PENDING RunTime=00:00:00 Partition=p TimeLimit=01:00:00 NumCPUs=32 " +
		"SubmitTime=1704067200 StartTime=Unknown EndTime=Unknown\n"
	snap, err := QueueSnapshot(strings.NewReader(sc), Options{MaxProcs: 16})
	if err != nil {
		t.Fatal(err)
	}
	before := len(snap.Report.Notes)
	noted("scontrol", snap.SWF().Report.Notes, "2 jobs allocated or asked more processors than MaxProcs 16 (the largest 64)")
	if len(snap.Report.Notes) != before || len(snap.SWF().Report.Notes) != before+1 {
		t.Errorf("SWF changed the snapshot's notes (%d, was %d) or noted twice", len(snap.Report.Notes), before)
	}
}
