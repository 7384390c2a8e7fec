package main

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// machineCSV is a batchq nodes file: one node of two A100s and two CPU
// nodes, 4 cores and 1000 MiB each, 12 cores in all. The GPU node comes
// first: sched names the resource the first node in order lacks (a CPU
// node first would make a V100 job lack "GPUs", not "GPU model").
const machineCSV = `kind,count,cores,memory,gpus,gpu_model
gpu,1,4,1000,2,A100
cpu,2,4,1000,0,
`

// podsCSV is an Alibaba pod list for machineCSV (cores in the nodes
// file's units). By hand, under EASY (no estimates: e = r): p1 takes the
// GPU node's 4 cores and both GPUs over [0, 100); p2 (one GPU) waits for
// them, from 10 to 100, and runs 40 s (logged: scheduled 20, deleted 60);
// p3 runs at once on a CPU node over [30, 80); p4 asks a V100, which no
// node has, p5 more memory than a node has: both fit no node; p6 was
// never scheduled (Pending): no run time.
const podsCSV = `name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time
p1,4,500,2,1000,,LS,Succeeded,0,100,0
p2,4,500,1,1000,A100,LS,Succeeded,10,60,20
p3,2,100,0,0,,BE,Succeeded,30,80,30
p4,1,100,1,1000,V100,LS,Succeeded,35,90,35
p5,1,5000,0,0,,LS,Succeeded,36,90,36
p6,1,100,0,0,,LS,Pending,40,50,
`

func TestNodesAlibaba(t *testing.T) {
	dir := t.TempDir()
	nodes := writeTrace(t, dir, "machine.csv", machineCSV)
	pods := writeTrace(t, dir, "pods.csv.gz", podsCSV)
	m := runJSON(t, "-nodes", nodes, pods, "-check")
	num := func(k string) float64 { return m[k].(float64) }
	if m["format"] != "alibaba" || num("jobs_read") != 6 || num("jobs_simulated") != 3 || m["check"] != "ok" {
		t.Fatalf("format %v, read %v, simulated %v, check %v; want alibaba, 6, 3, ok", m["format"], m["jobs_read"], m["jobs_simulated"], m["check"])
	}
	rej := m["rejected"].(map[string]any)
	if rej["fits_no_node"] != 2.0 || rej["no_run_time"] != 1.0 {
		t.Errorf("rejected %v; want fits_no_node 2, no_run_time 1", rej)
	}
	nn := m["no_node"].(map[string]any)
	if len(nn) != 2 || nn["GPU model"] != 1.0 || nn["memory"] != 1.0 {
		t.Errorf("no_node %v; want GPU model 1, memory 1", nn)
	}
	f := m["nodes"].(map[string]any)
	if f["nodes"] != 3.0 || f["kinds"] != 2.0 || f["cores"] != 12.0 || f["memory"] != 3000.0 || f["gpus"] != 2.0 || f["placement"] != "first fit" {
		t.Errorf("nodes %v", f)
	}
	// Held over [0, 140): cores 4×100 + 4×40 + 2×50 of 12; memory
	// 500×100 + 500×40 + 100×50 of 3000; GPUs 2×100 + 1×40 of 2.
	u := m["use"].(map[string]any)
	for k, want := range map[string]float64{"cores": 660.0 / (12 * 140), "memory": 75000.0 / (3000 * 140), "gpus": 240.0 / (2 * 140)} {
		if got := u[k].(float64); math.Abs(got-want) > 1e-12 {
			t.Errorf("use %s = %v, want %v", k, got, want)
		}
	}
	// Waits: logged 0, 10, 0; simulated 0, 90, 0.
	w := m["waits"].(map[string]any)
	lg, sm := w["logged"].(map[string]any), w["simulated"].(map[string]any)
	if w["jobs"] != 3.0 || math.Abs(lg["mean_s"].(float64)-10.0/3) > 1e-12 || lg["median_s"] != 0.0 || lg["p95_s"] != 10.0 ||
		math.Abs(lg["waited"].(float64)-1.0/3) > 1e-12 || sm["mean_s"] != 30.0 || sm["p95_s"] != 90.0 {
		t.Errorf("waits %v", w)
	}

	// The text report says the same.
	code, out, errs := runCmd(t, pods, "-nodes", nodes, "-placement", "best", "-check")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"3 nodes of 2 kinds", "best fit", "fits no node    2", "    GPU model", "held ",
		"logged wait       mean 3 s, median 0 s, p95 10 s, 0.333 waited (3 jobs with a logged wait)",
		"simulated wait    mean 30 s, median 0 s, p95 90 s, 0.333 waited", "check             ok", "converted         6 pods, 6 jobs"} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}

	// Standard input, gzip.
	code, out, errs = runIn(t, string(mustRead(t, pods)), "-nodes", nodes, "-", "-json")
	if code != 0 || !strings.Contains(out, `"jobs_simulated": 3`) {
		t.Errorf("stdin: exit %d: %s%s", code, errs, out)
	}
}

// TestNodesSpreadIsPool: an SWF log without demands on nodes of as many
// cores in all as its machine spreads its jobs and schedules as the pool
// does (sched's property), and -check passes.
func TestNodesSpreadIsPool(t *testing.T) {
	dir := t.TempDir()
	trace := writeTrace(t, dir, "small.swf", small)
	nodes := writeTrace(t, dir, "n.csv", "kind,count,cores\na,1,3\nb,1,5\n")
	pool := runJSON(t, trace)
	on := runJSON(t, trace, "-nodes", nodes, "-check")
	for _, k := range []string{"mean_wait_s", "mean_bsld", "jobs_simulated", "utilization"} {
		if pool[k] != on[k] {
			t.Errorf("%s: pool %v, nodes %v", k, pool[k], on[k])
		}
	}
	if on["check"] != "ok" || on["format"] != "swf" || on["machine"] != 8.0 {
		t.Errorf("check %v, format %v, machine %v", on["check"], on["format"], on["machine"])
	}
	if pool["nodes"] != nil || pool["check"] != "not run" {
		t.Errorf("pool: nodes %v, check %v", pool["nodes"], pool["check"])
	}
}

// TestCountMemory: SWF's field 10 (KB per processor) asks memory per core
// with -count-memory: 4 processors of 4 MiB each fit no machine of two
// 4-core nodes of 4 MiB (one core's memory per node), 4 of 2 MiB do.
func TestCountMemory(t *testing.T) {
	dir := t.TempDir()
	trace := writeTrace(t, dir, "mem.swf", "; MaxProcs: 8\n"+
		"1 0 0 10 4 -1 -1 4 20 4096 1 1 1 -1 -1 -1 -1 -1\n"+
		"2 5 0 10 4 -1 -1 4 20 2048 1 1 1 -1 -1 -1 -1 -1\n")
	nodes := writeTrace(t, dir, "n.csv", "kind,count,cores,memory\na,2,4,4\n")
	without := runJSON(t, trace, "-nodes", nodes)
	with := runJSON(t, trace, "-nodes", nodes, "-count-memory")
	if without["jobs_simulated"] != 2.0 || with["jobs_simulated"] != 1.0 || with["no_node"].(map[string]any)["memory"] != 1.0 {
		t.Errorf("simulated %v without, %v with -count-memory (no_node %v); want 2, 1 (memory 1)", without["jobs_simulated"], with["jobs_simulated"], with["no_node"])
	}
}

// TestNodesHostile: wrong, empty and huge inputs are clear errors (exit 1,
// or 2 for usage), never a panic or a hang.
func TestNodesHostile(t *testing.T) {
	dir := t.TempDir()
	nodes := writeTrace(t, dir, "machine.csv", machineCSV)
	pods := writeTrace(t, dir, "pods.csv", podsCSV)
	swfTrace := writeTrace(t, dir, "small.swf", small)
	empty := writeTrace(t, dir, "empty", "")
	blank := writeTrace(t, dir, "blank.gz", "\n\n  \n")
	w := func(name, text string) string { return writeTrace(t, dir, name, text) }
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"empty trace", []string{"-nodes", nodes, empty}, 1, "no job lines"},
		{"blank gzip trace", []string{"-nodes", nodes, blank}, 1, "no job lines"},
		{"empty nodes", []string{"-nodes", empty, pods}, 1, "empty"},
		{"nodes as trace", []string{"-nodes", nodes, nodes}, 1, "a node list, not a trace"},
		{"pods as nodes", []string{"-nodes", pods, pods}, 1, "a trace, not a node list"},
		{"swf as nodes", []string{"-nodes", swfTrace, pods}, 1, "a trace, not a node list"},
		{"other csv", []string{"-nodes", nodes, w("x.csv", "a,b,c\n1,2,3\n")}, 1, "neither an SWF log nor an Alibaba GPU 2023 pod list"},
		{"other csv as nodes", []string{"-nodes", w("y.csv", "a,b,c\n1,2,3\n"), pods}, 1, "not a node list"},
		{"pods without nodes", []string{pods}, 1, "pass the trace's node list as -nodes"},
		{"header only pods", []string{"-nodes", nodes, w("h.csv", "name,cpu_milli\n")}, 1, "no pods"},
		// Every pod skipped said "no pods", not why.
		{"every pod skipped", []string{"-lenient", "-nodes", nodes, w("s.csv", "name,cpu_milli,creation_time\np,1000,\nq,1000,\n")}, 1, "every one of the 2 pods was skipped (2 no submit time)"},
		{"header only nodes", []string{"-nodes", w("hn.csv", "kind,count,cores\n"), pods}, 1, "-nodes"},
		{"nodes over 2^20", []string{"-nodes", w("big.csv", "kind,count,cores\nbig,1048577,1\n"), pods}, 1, "out of range"},
		{"cores over 2^40", []string{"-nodes", w("c.csv", "kind,count,cores\nbig,4,1099511627776\n"), pods}, 1, "above 2^40"},
		{"GPUs over 64", []string{"-nodes", w("g.csv", "kind,count,cores,gpus\ng,1,4,100\n"), pods}, 1, "above 64"},
		{"machine mismatch", []string{"-nodes", nodes, "-machine", "7", pods}, 1, "MachineSize 7"},
		{"bad placement", []string{"-nodes", nodes, "-placement", "worst", pods}, 2, "-placement"},
		{"placement without nodes", []string{"-placement", "best", swfTrace}, 2, "need a machine of nodes"},
		{"count-memory without nodes", []string{"-count-memory", swfTrace}, 2, "need a machine of nodes"},
		{"missing nodes", []string{"-nodes", filepath.Join(dir, "nope.csv"), pods}, 1, "nope.csv"},
		{"malformed pod", []string{"-nodes", nodes, w("bad.csv", "name,cpu_milli\np,-5\n")}, 1, "cpu_milli"},
	} {
		r := clitest.Exec(runContext, "", c.args...)
		if r.Code != c.code || !strings.Contains(r.Stderr, c.want) || strings.Count(r.Stderr, "\n") != 1 {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and one line with %q", c.name, r.Code, r.Stderr, c.code, c.want)
		}
	}

	// Huge but legal: 2^20 nodes, a pod of more cores than any node and
	// one of 2^40 memory: rejected, counted, no hang.
	big := w("big2.csv", "kind,count,cores,memory\nbig,1048576,1,1\n")
	huge := w("huge.csv", "name,cpu_milli,memory_mib,num_gpu,gpu_milli,creation_time,deletion_time,scheduled_time\n"+
		"a,1,1,0,0,0,10,0\nb,2,1,0,0,0,10,0\nc,1,1099511627776,0,0,0,10,0\n")
	r := clitest.Exec(runContext, "", "-nodes", big, huge, "-json", "-check")
	if r.Code != 0 || !strings.Contains(r.Stdout, `"cores": 1`) || !strings.Contains(r.Stdout, `"jobs_simulated": 1`) {
		t.Errorf("huge: exit %d: %s%s", r.Code, r.Stderr, r.Stdout)
	}
}

// TestCheckFails: a violation -check found is the run's error, exit 1,
// after the report.
func TestCheckFails(t *testing.T) {
	info := &runInfo{checked: true, checkErr: errTest("job 3 overdraws node 1")}
	if got := checkText(info); got != "job 3 overdraws node 1" {
		t.Errorf("checkText %q", got)
	}
	if err := checkError(info); err == nil || !strings.Contains(err.Error(), "-check: the schedule is wrong: job 3 overdraws node 1") {
		t.Errorf("checkError %v", err)
	}
	if err := checkError(&runInfo{checked: true}); err != nil {
		t.Errorf("no violation: %v", err)
	}
}

type errTest string

func (e errTest) Error() string { return string(e) }

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestStatsOfSelects checks statsOf's selection against a sort, on lists
// with many ties, sorted and reversed lists, and values past 2^53.
func TestStatsOfSelects(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ref := func(w []int64) waitStats {
		w = slices.Clone(w)
		slices.Sort(w)
		var sum float64
		waited := 0
		for _, x := range w {
			sum += float64(x)
			if x > 0 {
				waited++
			}
		}
		rank := func(q float64) float64 {
			k := int(math.Ceil(q*float64(len(w)))) - 1
			return float64(w[max(0, min(k, len(w)-1))])
		}
		n := float64(len(w))
		return waitStats{Mean: sum / n, Median: rank(0.5), P95: rank(0.95), Waited: float64(waited) / n}
	}
	for trial := range 400 {
		n := 1 + rng.IntN(3000)
		w := make([]int64, n)
		for i := range w {
			switch trial % 5 {
			case 0:
				w[i] = rng.Int64N(5) // ties
			case 1:
				w[i] = int64(i) // sorted
			case 2:
				w[i] = int64(n - i) // reversed
			case 3:
				w[i] = rng.Int64() - math.MaxInt64/2 // sums past 2^53
			default:
				w[i] = rng.Int64N(100000) - 10
			}
		}
		want := ref(w)
		if got := statsOf(slices.Clone(w)); got != want {
			t.Fatalf("trial %d (n %d): statsOf %+v, sorted %+v", trial, n, got, want)
		}
	}
}

// TestNodesNotesPrinted: what reading -nodes noted (here: a list without a
// gpus column has no GPUs) is in the text report, as the trace's
// conversion notes are.
func TestNodesNotesPrinted(t *testing.T) {
	dir := t.TempDir()
	nodes := writeTrace(t, dir, "cpu.csv", "kind,count,cores,memory\ncpu,2,4,1000\n")
	pods := writeTrace(t, dir, "pods.csv", "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\np3,2,100,0,0,,BE,Succeeded,30,80,30\n")
	r := clitest.Exec(runContext, "", "-nodes", nodes, pods)
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	_, nr, err := cli.ReadNodes(nodes, false)
	if err != nil {
		t.Fatalf("readNodes: %v", err)
	}
	if len(nr.Notes) == 0 {
		t.Fatal("a node list without a gpus column gave no note")
	}
	for _, n := range nr.Notes {
		if !strings.Contains(r.Stdout, n) {
			t.Errorf("note %q not in the report:\n%s", n, r.Stdout)
		}
	}
}

// TestReadmeUseOnePool checks the README's word on the JSON's "use" on
// one pool against the output: the fields that are there and 0 (the
// README said "only cores" while memory and gpus were printed as 0).
func TestReadmeUseOnePool(t *testing.T) {
	m := runJSON(t, writeTrace(t, t.TempDir(), "small.swf", small))
	u, ok := m["use"].(map[string]any)
	if !ok {
		t.Fatalf("use = %v, want an object", m["use"])
	}
	if c, _ := u["cores"].(float64); c <= 0 || c > 1 {
		t.Errorf("use cores = %v, want a share in (0, 1]", u["cores"])
	}
	var zero []string
	for _, k := range []string{"cores", "memory", "gpus"} {
		if _, ok := u[k]; !ok {
			t.Errorf("use has no %q: %v", k, u)
		} else if u[k] == 0.0 {
			zero = append(zero, "`"+k+"`")
		}
	}
	if len(u) != 3 {
		t.Errorf("use has %d fields, want cores, memory, gpus: %v", len(u), u)
	}
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	want := "on one pool " + strings.Join(zero, " and ") + " are 0)"
	if !strings.Contains(strings.Join(strings.Fields(string(doc)), " "), want) {
		t.Errorf("README.md should say of use %q (the one-pool output: %v)", want, u)
	}
}
