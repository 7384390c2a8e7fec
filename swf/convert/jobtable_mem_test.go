package convert

import (
	"strings"
	"testing"
)

// TestJobTableMemory: ColumnMap's reqmem and usedmem fill SWF's fields
// 10 and 7 (KB per processor) and the demand line's memory, in the
// value's unit or the map's (MiB by default, noted), for the job, a node
// or a processor as the suffix or Slurm's ReqMem c/n says; a job without
// memory or whose processors are unknown is counted. The map had no
// memory role: a table's memory was lost.
func TestJobTableMemory(t *testing.T) {
	in := "Job,Submit,Start,End,Cores,Nodes,Mem,RSS\n" +
		"a,1700000000,1700000010,1700000100,4,1,8000,2G\n" + // 8000 MiB in all: 2000 MiB a core
		"b,1700000000,1700000010,1700000100,8,2,4Gn,\n" + // Slurm's per node: 8 GiB in all, 1 GiB a core
		"c,1700000000,1700000010,1700000100,4,1,1000Mc,1.5GiB\n" + // per CPU
		"d,1700000000,1700000010,1700000100,,,16G,1G\n" + // processors unknown
		"e,1700000000,1700000010,1700000100,4,1,,\n" + // none
		"f,1700000000,1700000010,1700000100,4,1,lots,-1\n" + // unreadable
		"g,1700000000,1700000010,1700000100,4,1,0G,0.0\n" // zero with a unit or a point: none, as 0
	m := map[string]string{"id": "Job", "submit": "Submit", "start": "Start", "end": "End", "procs": "Cores",
		"nodes": "Nodes", "reqmem": "Mem", "usedmem": "RSS"}
	res, err := GPUTrace(strings.NewReader(in), Options{ColumnMap: m})
	if err != nil {
		t.Fatal(err)
	}
	checkTableAccounts(t, "memory", res.Report, len(res.Jobs))
	want := []struct {
		req, used float64
		demMem    int64 // the demand's memory (per node; per core without nodes)
	}{
		{2000 * 1024, 512 * 1024, 8000},
		{1 << 20, -1, 4096},
		{1000 * 1024, 384 * 1024, 4000}, // (a node of 4 cores at 1000 MiB)
		{-1, -1, 0},                     // (nor cores nor nodes: no demand holds it)
		{-1, -1, 0},
		{-1, -1, 0},
		{-1, -1, 0},
	}
	for i, w := range want {
		j := res.Jobs[i]
		var dm int64
		if j.Demand != nil {
			dm = j.Demand.Memory
		}
		if j.ReqMemory != w.req || j.UsedMemory != w.used || dm != w.demMem {
			t.Errorf("job %s: req %v used %v demand %v, want %v %v %v", res.IDs[i], j.ReqMemory, j.UsedMemory, dm, w.req, w.used, w.demMem)
		}
	}
	a := res.Report.Anomalies
	if a[noteMemNoProcs] != 1 || a[noteNoReqMem] != 2 || a[noteNoUsedMem] != 3 || a["unreadable reqmem"] != 1 || a["unreadable usedmem"] != 1 {
		t.Errorf("anomalies %v", a)
	}
	if len(res.Report.Errors) != 2 || !strings.Contains(strings.Join(res.Report.Notes, "\n"), "memory: 1 values without a unit read as MiB") {
		t.Errorf("errors %v notes %v", res.Report.Errors, res.Report.Notes)
	}

	// The map's unit and scope: GB a node.
	m["reqmem"], m["usedmem"] = "Mem:GB/node", "RSS:kb"
	in = "Job,Submit,Start,End,Cores,Nodes,Mem,RSS\n" +
		"a,1700000000,1700000010,1700000100,8,2,2,4096\n"
	res, err = GPUTrace(strings.NewReader(in), Options{ColumnMap: m})
	if err != nil {
		t.Fatal(err)
	}
	if j := res.Jobs[0]; j.ReqMemory != 512*1024 || j.UsedMemory != 512 || j.Demand == nil || j.Demand.Memory != 2048 {
		t.Errorf("GB/node: %+v %+v", j, j.Demand)
	}
	// A duration's unit is refused; an unknown suffix is part of the
	// column's name, which the header then lacks.
	if err := (&Options{ColumnMap: map[string]string{"submit": "S", "reqmem": "Mem:min"}}).Validate(); err == nil {
		t.Error("reqmem=Mem:min: no error")
	}
	m["reqmem"] = "Mem:GB/rack"
	if _, err := GPUTrace(strings.NewReader(in), Options{ColumnMap: m}); err == nil || !strings.Contains(err.Error(), "mem:gb/rack: the header has no such column") {
		t.Errorf("Mem:GB/rack: %v", err)
	}
}

// TestSuperCloudReqMemory: a Slurm database table's TRES memory (2, MB)
// is SWF's requested memory too (field 10, KB per processor), not only
// the demand line's; a job without is counted. Field 10 was -1.
func TestSuperCloudReqMemory(t *testing.T) {
	res := convertTable(t, "table-supercloud.csv", Options{})
	// 101: 384000 MB over 40 processors; 102: 192000 MB over 96.
	for i, want := range []float64{384000 * 1024 / 40, 192000 * 1024 / 96, -1, 96000 * 1024 / 48, -1} {
		if got := res.Jobs[i].ReqMemory; got != want {
			t.Errorf("job %s: requested memory %v KB, want %v", res.IDs[i], got, want)
		}
	}
	if n := res.Report.Anomalies[noteNoReqMem]; n != 2 {
		t.Errorf("%d jobs without memory, want 2", n)
	}

	// 2=0 is none, and memory over processors unknown is no field 10:
	// both counted. They were -1 silently.
	in := "id_job,time_submit,time_start,time_end,cpus_req,cpus_alloc,nodes_alloc,state,tres_req\n" +
		"1,1610000000,1610000060,1610003660,0,0,1,3,\"2=1000,4=1\"\n" +
		"2,1610000000,1610000060,1610003660,4,4,1,3,\"1=4,2=0,4=1\"\n"
	res, err := GPUTrace(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkTableAccounts(t, "tres", res.Report, len(res.Jobs))
	if a := res.Report.Anomalies; a[noteMemNoProcs] != 1 || a[noteNoReqMem] != 1 || res.Jobs[0].ReqMemory != -1 || res.Jobs[1].ReqMemory != -1 {
		t.Errorf("anomalies %v, jobs %+v", a, res.Jobs)
	}

	// An unreadable TRES list keeps no demand, and no field 10 either,
	// whichever of its items comes first: 2=1000 before the bad one was
	// kept (a job whose schedule then counted memory main never gave it).
	in = "id_job,time_submit,time_start,time_end,cpus_req,cpus_alloc,nodes_alloc,state,tres_req\n" +
		"1,1610000000,1610000060,1610003660,4,4,1,3,\"1=4,2=1000,9=x\"\n" +
		"2,1610000000,1610000060,1610003660,4,4,1,3,\"1=4,9=x,2=1000\"\n"
	if res, err = GPUTrace(strings.NewReader(in), Options{}); err != nil {
		t.Fatal(err)
	}
	for i, j := range res.Jobs {
		if j.ReqMemory != -1 || j.Demand != nil {
			t.Errorf("unreadable TRES, job %d: requested memory %v, demand %+v", i+1, j.ReqMemory, j.Demand)
		}
	}
}

// FuzzJobTableMemory: any memory column converts within bounds (-1 or
// at most maxMemKB per processor), every row accounted for.
func FuzzJobTableMemory(f *testing.F) {
	f.Add("4Gn", "1.5GiB", "8", "2", "")
	f.Add("99999999999999T", "-1", "0", "", ":GB/node")
	f.Add("1000Mc", "nan", "", "3", ":kb/cpu")
	f.Fuzz(func(t *testing.T, req, used, procs, nodes, suffix string) {
		m := map[string]string{"submit": "S", "start": "B", "end": "E", "procs": "P", "nodes": "N", "reqmem": "R" + suffix, "usedmem": "U"}
		if (&Options{ColumnMap: m}).Validate() != nil {
			return
		}
		q := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
		in := "S,B,E,P,N,R,U\n1700000000,1700000010,1700000100," + q(procs) + "," + q(nodes) + "," + q(req) + "," + q(used) + "\n"
		res, err := GPUTrace(strings.NewReader(in), Options{ColumnMap: m})
		if err != nil {
			return
		}
		checkTableAccounts(t, "fuzz", res.Report, len(res.Jobs))
		for _, j := range res.Jobs {
			for _, v := range []float64{j.ReqMemory, j.UsedMemory} {
				if v != -1 && (v < 0 || v > maxMemKB) { // (0: under half a KB, rounded)
					t.Fatalf("memory %v KB per processor: %+v", v, j)
				}
			}
			if d := j.Demand; d != nil && d.Validate() != nil {
				t.Fatalf("demand %+v", d)
			}
		}
	})
}
