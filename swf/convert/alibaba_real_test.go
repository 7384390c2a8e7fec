package convert

import (
	"bytes"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
)

// The figures the trace's README (../shared/traces/README.md, section
// alibaba-gpu-2023, from Weng et al.'s repository) publishes for the
// node list: 1,523 nodes, 6,212 GPUs of 7 models, nodes per model, 310
// CPU-only nodes; and 8,152 tasks in the default pod list.
var (
	alibabaNodes     = 1523
	alibabaGPUs      = int64(6212)
	alibabaCPUOnly   = int64(310)
	alibabaGPUNodes  = map[string]int64{"G2": 549, "T4": 404, "P100": 134, "V100M16": 55, "G3": 39, "V100M32": 30, "A10": 2}
	alibabaTasks     = 8152
	alibabaPodLists  = []string{"default", "gpuspec33", "multigpu20", "gpushare40", "cpu050"}
	alibabaNodeLists = []string{"all_node", "gpu_node"}
)

// dataRows counts the lines of a CSV file after its header, the way a
// reader that knows nothing of the format would.
func dataRows(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, l := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(l)) > 0 {
			n++
		}
	}
	return n - 1
}

// TestRealAlibabaNodes reads both node lists: the machine's kinds add up
// to the README's figures.
func TestRealAlibabaNodes(t *testing.T) {
	for _, list := range alibabaNodeLists {
		path := tracetest.Path(t, "alibaba-gpu-2023/openb_node_list_"+list+".csv")
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		kinds, rep, err := Nodes(f, Options{Strict: true})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		checkAccounted(t, rep)
		var nodes, gpus, cpuOnly int64
		perModel := map[string]int64{}
		for _, k := range kinds {
			if err := k.Validate(); err != nil {
				t.Error(err)
			}
			nodes += k.Count
			gpus += k.Count * k.GPUs
			if k.GPUs == 0 {
				cpuOnly += k.Count
			} else {
				perModel[k.GPUModel] += k.Count
			}
		}
		wantNodes, wantCPU := int64(alibabaNodes), alibabaCPUOnly
		if list == "gpu_node" {
			wantNodes, wantCPU = int64(alibabaNodes)-alibabaCPUOnly, 0
		}
		if nodes != wantNodes || gpus != alibabaGPUs || cpuOnly != wantCPU || rep.Jobs != int(nodes) ||
			rep.Records != dataRows(t, path) || len(rep.Anomalies) != 0 || len(rep.Skipped) != 0 {
			t.Errorf("%s: %d nodes, %d GPUs, %d CPU-only; want %d, %d, %d; report %+v", list, nodes, gpus, cpuOnly,
				wantNodes, alibabaGPUs, wantCPU, rep)
		}
		checkCounts64(t, list+": GPU nodes per model", perModel, alibabaGPUNodes)
	}
}

func checkCounts64(t *testing.T, what string, got, want map[string]int64) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s\n got %v\nwant %v", what, got, want)
		return
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s\n got %v\nwant %v", what, got, want)
			return
		}
	}
}

// TestRealAlibabaPods reads the five pod lists: every row is a job or a
// counted rejection, every demand is valid, and every pod fits a node of
// the node list but for its GPU-model constraint: gpuspec33 constrains
// some pods (openb-pod-1639: 120 cores and 8 GPUs, only G2, whose nodes
// have 96 cores) to models no node of which can hold them, which a
// simulator must reject.
func TestRealAlibabaPods(t *testing.T) {
	f, err := os.Open(tracetest.Path(t, "alibaba-gpu-2023/openb_node_list_all_node.csv"))
	if err != nil {
		t.Fatal(err)
	}
	kinds, _, err := Nodes(f, Options{})
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	fits := func(d *swf.Demand, anyModel bool) bool {
		for _, k := range kinds {
			if d.Cores <= k.Cores && d.Memory <= k.Memory && d.GPUs <= k.GPUs*1000 && (anyModel || d.AcceptsModel(k.GPUModel)) {
				return true
			}
		}
		return false
	}
	for _, list := range alibabaPodLists {
		path := tracetest.Path(t, "alibaba-gpu-2023/openb_pod_list_"+list+".csv")
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Alibaba(f, Options{})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		rep := res.Report
		checkAccounted(t, rep)
		rows := dataRows(t, path)
		if rep.Records != rows || len(res.Jobs) != rows || len(rep.Errors) != 0 {
			t.Errorf("%s: %d rows, report %+v", list, rows, rep)
		}
		if list == "default" && len(res.Jobs) != alibabaTasks {
			t.Errorf("default: %d jobs, the README says %d tasks", len(res.Jobs), alibabaTasks)
		}
		phases := 0
		for _, n := range rep.States {
			phases += n
		}
		if phases != len(res.Jobs) {
			t.Errorf("%s: states %v do not add up to %d jobs", list, rep.States, len(res.Jobs))
		}
		unfit := 0
		for k, j := range res.Jobs {
			if err := j.Demand.Validate(); err != nil || j.Demand.Cores != j.ReqProcs || !fits(j.Demand, true) {
				t.Errorf("%s: %s: demand %+v (%v) on no node", list, res.IDs[k], j.Demand, err)
			}
			if !fits(j.Demand, false) {
				unfit++
				if list != "gpuspec33" {
					t.Errorf("%s: %s: demand %+v on no node of its models", list, res.IDs[k], j.Demand)
				}
			}
			if k > 0 && j.Submit < res.Jobs[k-1].Submit {
				t.Fatalf("%s: job %d submitted before job %d", list, k+1, k)
			}
			if strings.HasPrefix(res.IDs[k], "line ") {
				t.Errorf("%s: job %d has no pod name", list, k+1)
			}
		}
		if list == "default" {
			// The doc's figure, counted here with a plain split of the
			// file: Running pods deleted before the trace's end.
			running, before := naiveRunning(t, path)
			if running != 5193 || before != 5159 || rep.States["Running"] != running || rep.Anomalies[noteCensored] != running-before {
				t.Errorf("default: %d Running, %d deleted before the end; report %v %v", running, before, rep.States, rep.Anomalies)
			}
		}
		// The strict reader accepts each list whole.
		f, _ = os.Open(path)
		if _, err := Alibaba(f, Options{Strict: true}); err != nil {
			t.Errorf("%s: strict: %v", list, err)
		}
		f.Close()
		t.Logf("%s: %d jobs, states %v, anomalies %v, %d on no node of their GPU models", list, len(res.Jobs),
			rep.States, rep.Anomalies, unfit)
	}
}

// naiveRunning counts a pod list's Running pods and those of them whose
// deletion_time is before the largest one in the file.
func naiveRunning(t *testing.T, path string) (running, before int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	head := strings.Split(lines[0], ",")
	phase, del := slices.Index(head, "pod_phase"), slices.Index(head, "deletion_time")
	var dels []int64
	last := int64(0)
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		d, _ := strconv.ParseInt(f[del], 10, 64)
		last = max(last, d)
		if f[phase] == "Running" {
			dels = append(dels, d)
		}
	}
	for _, d := range dels {
		if d < last {
			before++
		}
	}
	return len(dels), before
}

// BenchmarkAlibaba converts the default pod list; it reports pods/s.
func BenchmarkAlibaba(b *testing.B) {
	data, err := os.ReadFile(tracetest.Path(b, "alibaba-gpu-2023/openb_pod_list_default.csv"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	pods := 0
	for b.Loop() {
		res, err := Alibaba(bytes.NewReader(data), Options{})
		if err != nil {
			b.Fatal(err)
		}
		pods += len(res.Jobs)
	}
	b.ReportMetric(float64(pods)/b.Elapsed().Seconds(), "pods/s")
}
