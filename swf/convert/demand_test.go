package convert

import (
	"fmt"
	"maps"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/batchq/batchq/swf"
)

// checkDemands compares each job's Demand with want, by scheduler id (a
// nil entry: no Demand); ids not in want must have none either.
func checkDemands(t *testing.T, res *Result, want map[string]*swf.Demand) {
	t.Helper()
	n := 0
	for k, j := range res.Jobs {
		w := want[res.IDs[k]]
		if !reflect.DeepEqual(j.Demand, w) {
			t.Errorf("job %s: demand %+v, want %+v", res.IDs[k], j.Demand, w)
		}
		if j.Demand != nil {
			n++
		}
	}
	if res.Report.Demands != n {
		t.Errorf("Report.Demands %d, %d jobs have one", res.Report.Demands, n)
	}
}

// demandNotes keeps the anomalies about demands (and unreadable fields).
func demandNotes(r Report) map[string]int {
	out := maps.Clone(r.Anomalies)
	maps.DeleteFunc(out, func(k string, _ int) bool {
		return !strings.HasPrefix(k, "demand:") && !strings.HasPrefix(k, "unreadable")
	})
	return out
}

func TestSacctDemands(t *testing.T) {
	res := convertFile(t, "sacct", "testdata/sacct-gpu.txt", Options{})
	checkDemands(t, res, map[string]*swf.Demand{
		// ReqTRES cpu=8, mem=64G, node=2, gres/gpu=4, gres/gpu:a100=4: per node 4 cores, 32 GiB, 2 GPUs.
		"4001": {Nodes: 2, Cores: 4, Memory: 32768, GPUs: 2000, GPUModels: []string{"a100"}},
		// 3 GPUs on 2 nodes: 2 per node (rounded up, noted); 6 CPUs, 3000M.
		"4002": {Nodes: 2, Cores: 3, Memory: 1500, GPUs: 2000},
		// No TRES: NNodes 2, AllocCPUS 16, ReqMem 4000Mn per node, ReqGRES gpu:tesla:2 per node.
		"4003": {Nodes: 2, Cores: 8, Memory: 4000, GPUs: 2000, GPUModels: []string{"tesla"}},
		// gres/nvme kept per node; license/matlab not (noted).
		"4004": {Nodes: 1, Cores: 1, Memory: 1024, Named: map[string]int64{"gres/nvme": 100}},
		// No node count anywhere: spread, memory per core 4000M / 4.
		"4005": {Cores: 4, Memory: 1000},
		// A GPU without a node count: one node (noted).
		"4006": {Nodes: 1, Cores: 2, GPUs: 1000},
		// 5 CPUs on 2 nodes: 3 per node (noted); 1000M / 2.
		"4007": {Nodes: 2, Cores: 3, Memory: 500},
		// 4008: gres/gpu=x unreadable: no demand. 4009: ReqMem 2Gc × 4 cores per node.
		"4009": {Nodes: 2, Cores: 4, Memory: 8192},
		// Only AllocTRES (noted).
		"4010": {Nodes: 1, Cores: 4, Memory: 10240, GPUs: 1000},
		// 4011: nothing beyond processors.
	})
	checkCounts(t, "demand anomalies", demandNotes(res.Report), map[string]int{
		noteDemandGPUs: 1, noteDemandCluster: 1, noteDemandOneNode: 1, noteDemandCores: 1,
		noteDemandBad: 1, "unreadable ReqTRES": 1, noteDemandAlloc: 1})
	if e := res.Report.Errors; len(e) != 1 || e[0].Field != "ReqTRES" || e[0].Value != "gres/gpu=x" {
		t.Errorf("errors %v", e)
	}
	if _, err := Sacct(strings.NewReader(mustRead(t, "testdata/sacct-gpu.txt")), Options{Strict: true}); err == nil ||
		!strings.Contains(err.Error(), `field ReqTRES: "gres/gpu=x"`) {
		t.Errorf("strict: %v", err)
	}
}

func TestSacctJSONDemands(t *testing.T) {
	res := convertFile(t, "sacct-json", "testdata/sacct-gpu.json", Options{})
	checkDemands(t, res, map[string]*swf.Demand{
		// tres.requested: 8 CPUs, 65536 MB, 2 nodes, 4 GPUs of model a100.
		"5001": {Nodes: 2, Cores: 4, Memory: 32768, GPUs: 2000, GPUModels: []string{"a100"}},
		// tres.requested empty: tres.allocated (noted).
		"5002": {Nodes: 1, Cores: 4, GPUs: 1000},
		// No node TRES: allocation_nodes 1; required.memory_per_cpu 2000 × 2.
		"5003": {Nodes: 1, Cores: 2, Memory: 4000},
		// 5004: a GPU count of 1e30: no demand.
	})
	checkCounts(t, "demand anomalies", demandNotes(res.Report), map[string]int{
		noteDemandAlloc: 1, noteDemandBad: 1, "unreadable tres.requested": 1})
	// The same jobs as the text fixture (sacct-22.05.json and
	// sacct-parsable2.txt) have the same demands.
	text := convertFile(t, "sacct", "testdata/sacct-parsable2.txt", Options{})
	json := convertFile(t, "sacct-json", "testdata/sacct-22.05.json", Options{})
	for k := range text.Jobs {
		if !reflect.DeepEqual(text.Jobs[k].Demand, json.Jobs[k].Demand) {
			t.Errorf("job %s: text %+v, json %+v", text.IDs[k], text.Jobs[k].Demand, json.Jobs[k].Demand)
		}
	}
	want := map[string]*swf.Demand{
		"1001": {Nodes: 1, Cores: 4, Memory: 8000},
		"1002": {Nodes: 2, Cores: 4, Memory: 8000},  // 16000M over 2 nodes
		"1004": {Nodes: 2, Cores: 8, Memory: 32000}, // 4000Mc × 8 cores (text); 64000 MB / 2 (json)
		"1006": {Nodes: 1, Cores: 2, Memory: 4096},  // 4G
	}
	for k, id := range text.IDs {
		if w, ok := want[id]; ok && !reflect.DeepEqual(text.Jobs[k].Demand, w) {
			t.Errorf("job %s: %+v, want %+v", id, text.Jobs[k].Demand, w)
		}
	}
	// The jobcomp file's Tres (the request: Slurm's tres_fmt_req_str) and NodeCnt.
	jc := convertFile(t, "jobcomp", "testdata/jobcomp.txt", Options{})
	for k, id := range jc.IDs {
		if w, ok := want[id]; ok && !reflect.DeepEqual(jc.Jobs[k].Demand, w) {
			t.Errorf("jobcomp job %s: %+v, want %+v", id, jc.Jobs[k].Demand, w)
		}
	}
}

func TestPBSDemands(t *testing.T) {
	res := convertFile(t, "pbs", "testdata/pbs-gpu.log", Options{})
	checkDemands(t, res, map[string]*swf.Demand{
		// select=2:ncpus=8:ngpus=2:mem=64gb:gpu_model=v100, place=scatter:excl.
		"201.pbspro": {Nodes: 2, Cores: 8, Memory: 65536, GPUs: 2000, GPUModels: []string{"v100"}, Exclusive: true},
		// 1:ncpus=16:ngpus=4:mem=128gb+2:ncpus=4:mem=8gb: 3 nodes, each the largest (noted).
		"202.pbspro": {Nodes: 3, Cores: 16, Memory: 131072, GPUs: 4000},
		// 2:ncpus=2:mem=1gb, place=pack: one node with both (noted).
		"203.pbspro": {Nodes: 1, Cores: 4, Memory: 2048},
		// Torque nodes=2:ppn=4:gpus=1, mem=16gb in all, naccesspolicy=singlejob.
		"204.head": {Nodes: 2, Cores: 4, Memory: 8192, GPUs: 1000, Exclusive: true},
		// No select: nodect 1, ngpus 2, 4 CPUs.
		"205.pbspro": {Nodes: 1, Cores: 4, GPUs: 2000},
		// nodes=1:ppn=2 and procs=4: 6 processors on the node (noted).
		"206.head": {Nodes: 1, Cores: 6},
		// 207: ngpus=x: no demand.
	})
	checkCounts(t, "demand anomalies", demandNotes(res.Report), map[string]int{
		noteDemandShapes: 1, noteDemandPack: 1, noteDemandProcs: 1, noteDemandBad: 1, "unreadable Resource_List.select": 1})
	// The Torque fixture: nodes × ppn, pmem per process, mem in all.
	res = convertFile(t, "pbs", "testdata/pbs-torque.log", Options{})
	want := map[string]*swf.Demand{
		"101.head": {Nodes: 2, Cores: 8},
		"104.head": {Nodes: 1, Cores: 2, Memory: 4096}, // pmem=2gb × 2
		"105.head": {Nodes: 2, Cores: 2, Memory: 2048}, // n05:ppn=2+n06:ppn=2, mem=4gb
	}
	for k, id := range res.IDs {
		if w, ok := want[id]; ok && !reflect.DeepEqual(res.Jobs[k].Demand, w) {
			t.Errorf("job %s: %+v, want %+v", id, res.Jobs[k].Demand, w)
		}
	}
}

// The rules of builder.demand on their own.
func TestDemandRules(t *testing.T) {
	cases := []struct {
		name  string
		in    demandIn
		req   int64
		want  *swf.Demand
		notes []string
	}{
		{"nothing beyond processors", demandIn{cpus: 4}, 4, nil, nil},
		{"memory per CPU, no nodes", demandIn{memPerCPU: 100.5}, 4, &swf.Demand{Cores: 4, Memory: 101}, nil},
		{"memory in all, no nodes", demandIn{memTotal: 10}, 4, &swf.Demand{Cores: 4, Memory: 3}, []string{noteDemandMem}},
		{"memory per node, no nodes", demandIn{memPerNode: 10}, 4, &swf.Demand{Cores: 4}, []string{noteDemandMemNodes}},
		{"GRES rounded up", demandIn{nodes: 2, named: map[string]int64{"gres/x": 3}}, 4,
			&swf.Demand{Nodes: 2, Cores: 2, Named: map[string]int64{"gres/x": 2}}, []string{noteDemandNamed}},
		{"out of range", demandIn{nodes: 1, memTotal: 1 << 50}, 4, nil, []string{noteDemandRange}},
		{"whole nodes only", demandIn{excl: true}, 8, &swf.Demand{Cores: 8, Exclusive: true}, nil},
		{"licences only", demandIn{dropped: true}, 8, nil, []string{noteDemandCluster}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := newBuilder("test", &Options{})
			r := newRecord(1)
			r.req, r.dem = c.req, &c.in
			got := b.demand(&r)
			if !reflect.DeepEqual(got, c.want) || !reflect.DeepEqual([]string(r.notes), c.notes) {
				t.Errorf("got %+v, notes %q; want %+v, %q", got, r.notes, c.want, c.notes)
			}
		})
	}
}

func TestSlurmGRES(t *testing.T) {
	for _, c := range []struct {
		in     string
		gpus   int64
		models []string
		bad    bool
	}{
		{"gpu:2", 2, nil, false},
		{"gpu:tesla:2", 2, []string{"tesla"}, false},
		{"gpu:tesla:2(IDX:0-1),mic:1", 2, []string{"tesla"}, false},
		{"gpu", 1, nil, false},
		{"gpu:k80", 1, []string{"k80"}, false},
		{"mic:1", 0, nil, false},
		{"gpu:a:b:99999999999", 0, nil, true},
	} {
		g, m, err := slurmGRES(c.in)
		if g != c.gpus || !reflect.DeepEqual(m, c.models) || (err != nil) != c.bad {
			t.Errorf("%q: %d %q %v", c.in, g, m, err)
		}
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSnapshotDemands(t *testing.T) {
	const rec = "JobId=%d JobName=x UserId=a(1) Priority=5 Account=p JobState=PENDING Reason=Priority " +
		"TimeLimit=01:00:00 SubmitTime=2024-03-01T08:00:00 Partition=gpu NumNodes=%d NumCPUs=%d %s\n"
	in := fmt.Sprintf(rec, 9, 2, 8, "TRES=cpu=8,node=2,billing=8,gres/gpu=4 OverSubscribe=NO MinMemoryNode=16G") +
		fmt.Sprintf(rec, 10, 1, 4, "TRES=cpu=4,node=1,billing=4 TresPerNode=gres:gpu:a100:2 MinMemoryNode=0 MinMemoryCPU=2000M") +
		fmt.Sprintf(rec, 11, 1, 4, "TRES=cpu=4,node=1,gres/gpu=z")
	s, err := QueueSnapshot(strings.NewReader(in), Options{Now: time.Unix(1709280600, 0)})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]*swf.Demand{
		// 4 GPUs on 2 nodes; MinMemoryNode per node; OverSubscribe=NO.
		"9": {Nodes: 2, Cores: 4, Memory: 16384, GPUs: 2000, Exclusive: true},
		// TresPerNode gives GPUs per node and their model; MinMemoryCPU × 4.
		"10": {Nodes: 1, Cores: 4, Memory: 8000, GPUs: 2000, GPUModels: []string{"a100"}},
	}
	for _, q := range s.Waiting {
		if !reflect.DeepEqual(q.Demand, want[q.ID]) {
			t.Errorf("job %s: %+v, want %+v", q.ID, q.Demand, want[q.ID])
		}
	}
	if s.Report.Demands != 2 || s.Report.Anomalies[noteDemandBad] != 1 || len(s.Report.Errors) != 1 {
		t.Errorf("report %+v", s.Report)
	}
	running, waiting := s.Jobs(nil, nil)
	if len(running) != 0 || len(waiting) != 3 || !reflect.DeepEqual(waiting[0].Demand, want["9"]) {
		t.Errorf("Jobs: %+v", waiting)
	}
}
