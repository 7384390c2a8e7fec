package convert

import (
	"strings"
	"testing"
)

// TestSuperCloudCPUsFromTRES: the MIT SuperCloud dataset's
// scheduler-log.csv (the columns its Intro-to-MIT-Supercloud-Dataset
// notebook lists: id_job, id_array_job, ..., nodes_alloc, cpus_req, ...,
// tres_alloc, tres_req, job_type) has no cpus_alloc: every job that ran
// had allocated processors -1, counted "processors unknown (nodes only;
// give Options.CoresPerNode)", although tres_alloc gives its CPUs (TRES
// 1). Made-up rows.
func TestSuperCloudCPUsFromTRES(t *testing.T) {
	in := "id_job,id_array_job,id_array_task,id_user,kill_requid,nodes_alloc,nodelist,cpus_req,derived_ec,exit_code," +
		"gres_used,array_max_tasks,array_task_pending,constraints,flags,mem_req,partition,priority,state,timelimit," +
		"time_submit,time_eligible,time_start,time_end,time_suspended,track_steps,tres_alloc,tres_req,job_type\n" +
		`5001,0,4294967294,u101,-1,1,r1n1,40,0,0,gpu:volta:2,0,0,,4,0,p1,1000,3,720,1610000000,1610000000,` +
		`1610000060,1610003660,0,0,"1=40,2=384000,4=1,5=40,1002=2","1=40,2=384000,4=1,1002=2",gpu` + "\n" +
		`5002,5002,3,u102,-1,2,"r2n[1-2]",,0,256,,0,0,,4,0,p2,900,5,60,1610000100,1610000100,1610000200,` +
		`1610000300,0,0,"1=96,2=192000,4=2,5=96","1=96,2=192000,4=2",cpu` + "\n"
	res, err := GPUTrace(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Report.Format != "supercloud" || len(res.Jobs) != 2 {
		t.Fatalf("format %q, %d jobs", res.Report.Format, len(res.Jobs))
	}
	for k, want := range []int64{40, 96} {
		if j := res.Jobs[k]; j.AllocProcs != want || j.ReqProcs != want {
			t.Errorf("job %s: %d allocated, %d requested processors, want %d", res.IDs[k], j.AllocProcs, j.ReqProcs, want)
		}
	}
	a := res.Report.Anomalies
	if a[noteProcsNodesOnly] != 0 || a[noteProcsTRES] != 2 {
		t.Errorf("anomalies %v", a)
	}
}
