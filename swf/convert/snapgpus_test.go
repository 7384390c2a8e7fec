package convert

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// demandText is a demand as a test compares it.
func demandText(d *swf.Demand) string {
	if d == nil {
		return "none"
	}
	return fmt.Sprintf("nodes=%d cores=%d mem=%d gpus=%d models=%v", d.Nodes, d.Cores, d.Memory, d.GPUs, d.GPUModels)
}

// TestSnapshotGPUsBesideTRES: a cluster that does not account gres/gpu
// (AccountingStorageTRES without it, as Slurm-web's test cluster of
// Slurm 24.05 to 25.11 runs) prints TRES strings with no GPU; slurmrestd
// gives them in gres_detail (a running job's, per node) and tres_per_node,
// tres_per_job, tres_per_task. Every GPU job's demand had no GPU. And a
// job's demand was its request although it runs on more (--gpus=8: node=1
// requested, 2 nodes held; its 2 CPUs as 1 core on 1 node), and a pending
// job of 128 CPUs on 64-CPU nodes (node=1 in its TRES, node_count 2)
// asked one node of 128 cores, which no node of that machine has.
func TestSnapshotGPUsBesideTRES(t *testing.T) {
	f, err := os.Open("testdata/snapshot/slurmrestd-gpus-v0.0.42.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := QueueSnapshot(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"201": "nodes=2 cores=1 mem=1024 gpus=4000 models=[a100]", // gres_detail, tres_alloc_str
		"202": "nodes=1 cores=2 mem=2048 gpus=4000 models=[a100]", // gres_detail (2 tasks × 2)
		"203": "nodes=2 cores=64 mem=65536 gpus=0 models=[]",      // node_count over node=1
		"204": "nodes=2 cores=4 mem=4096 gpus=2000 models=[a100]", // tres_per_node
		"205": "nodes=1 cores=3 mem=3072 gpus=3000 models=[]",     // tres_per_task × 3 tasks
		"206": "nodes=1 cores=1 mem=1024 gpus=4000 models=[]",     // tres_per_job
	}
	got := map[string]string{}
	for _, q := range append(s.Running, s.Waiting...) {
		got[q.ID] = demandText(q.Demand)
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("job %s: demand %s, want %s", id, got[id], w)
		}
	}
	a := s.Report.Anomalies
	if a[noteSnapGPUDetail] != 2 || a[noteSnapGPUSpec] != 3 || a[noteSnapNodes] != 1 {
		t.Errorf("anomalies %v: want 2 %q, 3 %q, 1 %q", a, noteSnapGPUDetail, noteSnapGPUSpec, noteSnapNodes)
	}
}

// TestScontrolGPUsBesideTRES: scontrol show job's GPUs beside the TRES
// (TresPerJob, TresPerTask × NumTasks, TresPerSocket, -d's GRES per node
// of a running job), as Slurm's testsuite (test39.1) prints them, and a
// running job's AllocTRES over its ReqTRES, NumNodes over a smaller node=.
func TestScontrolGPUsBesideTRES(t *testing.T) {
	rec := func(id, state, numNodes, numCPUs, tasks, req, alloc, extra string) string {
		return "JobId=" + id + " JobName=j" + id + "\n   UserId=ana(1000) GroupId=ana(1000) MCS_label=N/A\n" +
			"   Priority=100 Nice=0 Account=lab QOS=normal\n   JobState=" + state + " Reason=None Dependency=(null)\n" +
			"   RunTime=00:01:00 TimeLimit=01:00:00 TimeMin=N/A\n" +
			"   SubmitTime=2024-11-01T07:50:00 EligibleTime=2024-11-01T07:50:00\n" +
			"   StartTime=2024-11-01T07:59:00 EndTime=2024-11-01T08:59:00 Deadline=N/A\n" +
			"   Partition=gpu AllocNode:Sid=login:1\n" +
			"   NumNodes=" + numNodes + " NumCPUs=" + numCPUs + " NumTasks=" + tasks + " CPUs/Task=1 ReqB:S:C:T=0:0:*:*\n" +
			"   ReqTRES=" + req + "\n   AllocTRES=" + alloc + "\n" + extra +
			"   MinCPUsNode=1 MinMemoryCPU=1G MinTmpDiskNode=0\n   OverSubscribe=OK Contiguous=0 Licenses=(null) Network=(null)\n" +
			"   Command=(null)\n   WorkDir=/home/ana\n   Power=\n"
	}
	in := rec("301", "RUNNING", "2", "2", "2", "cpu=1,mem=1G,node=1,billing=1", "cpu=2,mem=2G,node=2,billing=2",
		"   JOB_GRES=gpu:a100:8\n     Nodes=g[1-2] CPU_IDs=0 Mem=1024 GRES=gpu:a100:4(IDX:0-3)\n   TresPerJob=gres/gpu:8\n") +
		"\n" + rec("302", "PENDING", "1", "3", "3", "cpu=3,mem=3G,node=1,billing=3", "(null)", "   TresPerTask=gres/gpu=1\n") +
		"\n" + rec("303", "PENDING", "1", "1", "1", "cpu=1,mem=1G,node=1,billing=1", "(null)", "   TresPerSocket=gres:gpu:2\n") +
		"\n" + rec("304", "PENDING", "2", "128", "128", "cpu=128,mem=128G,node=1,billing=128", "(null)", "")
	s, err := QueueSnapshot(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"301": "nodes=2 cores=1 mem=1024 gpus=4000 models=[a100]",
		"302": "nodes=1 cores=3 mem=3072 gpus=3000 models=[]",
		"303": "nodes=1 cores=1 mem=1024 gpus=2000 models=[]",
		"304": "nodes=2 cores=64 mem=65536 gpus=0 models=[]",
	}
	got := map[string]string{}
	for _, q := range append(s.Running, s.Waiting...) {
		got[q.ID] = demandText(q.Demand)
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("job %s: demand %s, want %s", id, got[id], w)
		}
	}
	if a := s.Report.Anomalies; a[noteSnapGPUSocket] != 1 || a[noteSnapGPUDetail] != 1 || a[noteSnapNodes] != 1 {
		t.Errorf("anomalies %v", a)
	}
}

// TestSnapshotRunningAllocMem: a running job's demand is its allocation,
// but Slurm leaves mem out of it where memory is not consumable (Slurm
// 22.05's squeue --json: tres_alloc_str "cpu=6,node=1,billing=6", its
// request "cpu=6,mem=4000M,node=1,billing=6"): the request's memory
// (it was lost when the allocation was first read).
func TestSnapshotRunningAllocMem(t *testing.T) {
	f, err := os.Open("testdata/snapshot/real-22.05/1-squeue.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := QueueSnapshot(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"1": "nodes=1 cores=6 mem=4000 gpus=0 models=[]", "2": "nodes=1 cores=2 mem=4000 gpus=0 models=[]"}
	for _, q := range s.Running {
		if w, ok := want[q.ID]; ok && demandText(q.Demand) != w {
			t.Errorf("job %s: demand %s, want %s", q.ID, demandText(q.Demand), w)
		}
	}
	// scontrol (Slurm 23.02 and later print AllocTRES beside ReqTRES).
	in := "JobId=9 JobName=x\n   UserId=ana(1000) GroupId=ana(1000)\n   Priority=1 JobState=RUNNING Reason=None\n" +
		"   RunTime=00:01:00 TimeLimit=01:00:00\n   SubmitTime=2024-11-01T07:50:00 StartTime=2024-11-01T07:59:00\n" +
		"   Partition=p NumNodes=1 NumCPUs=6 NumTasks=6\n   ReqTRES=cpu=6,mem=4000M,node=1,billing=6\n" +
		"   AllocTRES=cpu=6,node=1,billing=6\n"
	sc, err := QueueSnapshot(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Running) != 1 || demandText(sc.Running[0].Demand) != "nodes=1 cores=6 mem=4000 gpus=0 models=[]" {
		t.Errorf("scontrol: %+v", sc.Running)
	}
}

// TestGRESDetailZeroModel: Slurm 23.11's gres_detail names every GPU type
// of a node, with 0 for one the job holds none of ("gpu:h100:2(IDX:0-1),
// gpu:h200:0(IDX:)"): h200 was a model the demand accepted.
func TestGRESDetailZeroModel(t *testing.T) {
	n, models, err := slurmGRES("gpu:h100:2(IDX:0-1),gpu:h200:0(IDX:)")
	if err != nil || n != 2 || len(models) != 1 || models[0] != "h100" {
		t.Errorf("%d GPUs, models %v, %v; want 2 [h100]", n, models, err)
	}
}

// TestSnapshotGPUsPerTaskBound: GPUs per task times a task count past
// 2^24 is out of range (the demand not kept, counted), never a product
// that wraps: 4 GPUs × 2^62 tasks wrapped to 0 and passed the bound.
func TestSnapshotGPUsPerTaskBound(t *testing.T) {
	var in demandIn
	_, _, err := snapGPUs(&in, nil, []gpuSpec{{"tres_per_task", "gres/gpu=4", perTask}}, 1<<62, func(string) {})
	if err != errProcs {
		t.Errorf("err %v, gpus %d; want errProcs", err, in.gpus)
	}
}
