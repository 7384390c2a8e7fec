package convert

import (
	"strings"
	"testing"
)

// TestPBSCrayMppWidth: a Cray XT/XE job under PBS with ALPS (as Cray
// sites logged them, HECToR's among them: Resource_List.mppwidth,
// mppnppn, mppdepth beside ncpus=1 and the login node's exec_host) is
// mppwidth processing elements of mppdepth threads: 64 × 2 cores on 32
// nodes of 2 elements here. It was written as 1 processor (the login
// node's slot), its demand one node of one core.
func TestPBSCrayMppWidth(t *testing.T) {
	const line = "08/12/2008 00:04:14;E;102.srv;user=u3 group=-default- account=acct jobname=run.pbs " +
		"queue=par:n32c2_12h ctime=1218451557 qtime=1218451557 etime=1218451557 start=1218454455 " +
		"exec_host=nid00007/17 exec_vnode=(hx02:ncpus=1) Resource_List.mpparch=XT Resource_List.mppnppn=2 " +
		"Resource_List.mppwidth=64 Resource_List.mppdepth=2 Resource_List.ncpus=1 Resource_List.nodect=1 " +
		"Resource_List.place=pack Resource_List.select=1 Resource_List.walltime=12:00:00 session=26609 " +
		"end=1218495854 Exit_status=0 resources_used.cput=00:00:10 resources_used.mem=1272kb " +
		"resources_used.ncpus=1 resources_used.walltime=11:29:59\n"
	res, err := PBS(strings.NewReader(line), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 1 {
		t.Fatalf("%d jobs", len(res.Jobs))
	}
	j := res.Jobs[0]
	if j.AllocProcs != 128 || j.ReqProcs != 128 {
		t.Errorf("processors %d allocated, %d requested; want 128 (64 elements × depth 2)", j.AllocProcs, j.ReqProcs)
	}
	if d := j.Demand; d == nil || d.Nodes != 32 || d.Cores != 4 {
		t.Errorf("demand %+v, want 32 nodes of 4 cores (2 elements × depth 2)", d)
	}
	if res.Report.Anomalies[noteCray] != 1 {
		t.Errorf("anomalies %v", res.Report.Anomalies)
	}
	// Without mppnppn: the processors, no demand.
	res, err = PBS(strings.NewReader(strings.Replace(line, "Resource_List.mppnppn=2 ", "", 1)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if j := res.Jobs[0]; j.AllocProcs != 128 || j.Demand != nil {
		t.Errorf("without mppnppn: %d processors, demand %+v", j.AllocProcs, j.Demand)
	}
}
