package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// gpuNodesCSV is a batchq nodes file: four nodes of 8 cores and one GPU.
const gpuNodesCSV = "kind,count,cores,memory,gpus,gpu_model\ngpu,4,8,1000,1,A100\n"

// gpuLog writes a log of n jobs of one core and one GPU on gpuNodesCSV's
// machine (32 cores, 4 GPUs), with their demand lines, whose waits come
// from an EASY simulation on those nodes: the GPUs are the bottleneck, so
// jobs wait while 28 cores are idle, which one pool of 32 cannot see.
// Estimates are exact.
func gpuLog(t *testing.T, dir string, n int) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(n), 36))
	var jobs []swf.Job
	now := int64(0)
	for i := range n {
		now += int64(rng.ExpFloat64() * 300)
		run := int64(600 + rng.IntN(1800))
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.AllocProcs, j.ReqProcs, j.ReqTime, j.User, j.Status = int64(i+1), now, run, 1, 1, run, 1+rng.Int64N(5), 1
		j.Demand = &swf.Demand{Nodes: 1, Cores: 1, GPUs: 1000}
		jobs = append(jobs, j)
	}
	res, err := sched.Run(context.Background(), sched.Config{Nodes: []swf.Node{{Name: "gpu", Count: 4, Cores: 8, Memory: 1000, GPUs: 1, GPUModel: "A100"}}}, jobs)
	if err != nil {
		t.Fatal(err)
	}
	var out []swf.Job
	for _, r := range res.Records {
		j := r.SWF()
		j.Demand = r.Job.Demand
		out = append(out, j)
	}
	var b bytes.Buffer
	b.WriteString("; MaxProcs: 32\n")
	if err := swf.WriteAll(&b, &swf.Header{}, out); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "gpu.swf")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestNodesFlag: on a log whose jobs wait for GPUs, the user-estimate
// simulation (exact estimates here) placed on -nodes forecasts the waits
// that one pool of the same cores cannot see (it says "now" to every
// job); without -nodes a note says the demands are ignored.
func TestNodesFlag(t *testing.T) {
	dir := t.TempDir()
	log := gpuLog(t, dir, 400)
	nodes := filepath.Join(dir, "nodes.csv")
	if err := os.WriteFile(nodes, []byte(gpuNodesCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	within2 := func(args ...string) (float64, string) {
		t.Helper()
		code, out, errs := runCmd(t, append([]string{"-json", "-predictors", "estimates,naive"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var r jsonRow
		if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &r); err != nil || r.Within2 == nil {
			t.Fatalf("%v: %v in %s", args, err, out)
		}
		return *r.Within2, errs
	}
	pool, note := within2(log)
	onNodes, none := within2("-nodes", nodes, log)
	t.Logf("estimates within ×2: pool %.3f, nodes %.3f", pool, onNodes)
	if onNodes < pool+0.2 {
		t.Errorf("estimates within ×2 on the nodes %.3f, on one pool %.3f: the nodes should see the GPU waits", onNodes, pool)
	}
	if !strings.Contains(note, "400 of the 400 jobs replayed ask for cores, memory or GPUs") || !strings.Contains(note, "-nodes FILE") {
		t.Errorf("no note on the ignored demands: %q", note)
	}
	if none != "" {
		t.Errorf("stderr with -nodes: %q", none)
	}
	// The text report names the machine of nodes.
	code, out, _ := runCmd(t, "-predictors", "naive", "-nodes", nodes, log)
	if want := "machine 4 nodes of 1 kinds (-nodes nodes.csv): 32 cores, 4 GPUs"; code != 0 || !strings.Contains(out, want) {
		t.Errorf("exit %d, report lacks %q:\n%s", code, want, out)
	}
}

// TestNodesFlagErrors: a bad -nodes is a run error (exit 1) that names
// the file and says what was wanted; -machine must be the nodes' cores.
func TestNodesFlagErrors(t *testing.T) {
	dir := t.TempDir()
	log := gpuLog(t, dir, 50)
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	nodes := write("nodes.csv", gpuNodesCSV)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-nodes", filepath.Join(dir, "missing.csv"), log}, "-nodes: open " + filepath.Join(dir, "missing.csv")},
		{[]string{"-nodes", write("empty.csv", ""), log}, "-nodes " + filepath.Join(dir, "empty.csv") + ": empty"},
		{[]string{"-nodes", log, log}, "a trace, not a node list"},
		{[]string{"-nodes", write("bad.csv", "kind,count,cores\ngpu,x,8\n"), log}, "bad.csv"},
		{[]string{"-nodes", write("junk.csv", "hello,world\n1,2\n"), log}, "not a node list"},
		{[]string{"-nodes", write("big.csv", "kind,count,cores,gpus\ngpu,1,8,65\n"), log}, "big.csv"},
		{[]string{"-machine", "31", "-nodes", nodes, log}, "-machine 31, but the nodes of " + nodes + " have 32 cores"},
	} {
		code, _, errs := runCmd(t, append([]string{"-predictors", "naive"}, c.args...)...)
		if code != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want 1 and %q", c.args, code, errs, c.want)
		}
	}
	if code, _, errs := runCmd(t, "-predictors", "naive", "-machine", "32", "-nodes", nodes, log); code != 0 {
		t.Errorf("-machine equal to the nodes' cores: exit %d: %s", code, errs)
	}
	fmt.Sprint() // (keeps fmt for the README part of this file)
}
