package convert

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestDemandHeldNodes: Slurm's requested TRES name the nodes asked
// (node=1 by default), not the nodes the job held: --gpus=8 on 4-GPU
// nodes asks node=1, gres/gpu=8 and runs on 2 nodes; 128 CPUs on 64-CPU
// nodes likewise. The demand was one node of 8 GPUs (of 128 cores),
// which no node has: now the nodes held (sacct's NNodes, sacct --json's
// allocation_nodes, jobcomp's NodeCnt), noted.
func TestDemandHeldNodes(t *testing.T) {
	head := strings.ReplaceAll(SacctFormat, ",", "|") + "\n"
	in := head + sacctLine(with(with(with(good("1"), "ReqTRES", "cpu=2,mem=2G,node=1,gres/gpu=8"), "NNodes", "2"),
		"AllocTRES", "cpu=2,mem=2G,node=2,gres/gpu=8"))
	res, err := Sacct(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := demandText(res.Jobs[0].Demand); got != "nodes=2 cores=1 mem=1024 gpus=4000 models=[]" {
		t.Errorf("sacct: demand %s", got)
	}
	if res.Report.Anomalies[noteHeldNodes] != 1 {
		t.Errorf("sacct: anomalies %v", res.Report.Anomalies)
	}

	text, err := os.ReadFile("testdata/sacct-gpu.json")
	if err != nil {
		t.Fatal(err)
	}
	// 5001 asks 2 nodes (8 CPUs, 4 GPUs of a100); held 4 here.
	js := strings.Replace(string(text), `"required": {"CPUs": 8}, "allocation_nodes": 2,`,
		`"required": {"CPUs": 8}, "allocation_nodes": 4,`, 1)
	if js == string(text) {
		t.Fatal("testdata/sacct-gpu.json changed")
	}
	jr, err := SacctJSON(strings.NewReader(js), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for k, id := range jr.IDs {
		if id == "5001" {
			if got := demandText(jr.Jobs[k].Demand); got != "nodes=4 cores=2 mem=16384 gpus=1000 models=[a100]" {
				t.Errorf("sacct --json: demand %s", got)
			}
		}
	}
	if jr.Report.Anomalies[noteHeldNodes] != 1 {
		t.Errorf("sacct --json: anomalies %v", jr.Report.Anomalies)
	}

	jc := strings.Replace(jobcompLine("21", "COMPLETED", "2025-03-01T10:00:10", "2025-03-01T10:10:10", "1", "128",
		"2025-03-01T10:00:00"), "NodeCnt=1", "NodeCnt=2", 1)
	cr, err := Jobcomp(strings.NewReader(jc), Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if got := demandText(cr.Jobs[0].Demand); got != "nodes=2 cores=64 mem=0 gpus=0 models=[]" {
		t.Errorf("jobcomp: demand %s", got)
	}
}
