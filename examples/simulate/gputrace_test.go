package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"github.com/batchq/batchq/examples/internal/cli/clitest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// A GPU cluster job table (Helios, Acme, Philly), plain, gzip or on
// standard input, given as the trace is named and the command says to
// convert it first, rather than calling it no SWF log or a bad job number.
func TestGPUTraceConvertFirst(t *testing.T) {
	const dir = "../../swf/convert/testdata/"
	for in, what := range map[string]string{
		"gpu-helios.csv":     "a SenseTime Helios job table",
		"gpu-acme-seren.csv": "a Shanghai AI Lab Acme job table",
		"gpu-acme-kalos.csv": "a Shanghai AI Lab Acme job table",
		"gpu-philly.json":    "a Microsoft Philly job log",
	} {
		data, err := os.ReadFile(dir + in)
		if err != nil {
			t.Fatal(err)
		}
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write(data)
		zw.Close()
		zpath := filepath.Join(t.TempDir(), in+".gz")
		if err := os.WriteFile(zpath, gz.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		want := what + ", not an SWF log: convert it first: convert -from gpu FILE -o OUT.swf"
		for _, c := range []struct {
			stdin string
			args  []string
		}{
			{"", []string{dir + in, "-machine", "64"}},
			{"", []string{zpath, "-machine", "64"}},
			{"", []string{dir + in, "-nodes", writeNodes(t)}},
			{string(data), []string{"-", "-machine", "64"}},
		} {
			code, _, errs := runIn(t, c.stdin, c.args...)
			if code == 0 || !strings.Contains(errs, want) {
				t.Errorf("%s %v: exit %d, stderr %q; want %q", in, c.args, code, errs, want)
			}
		}
	}
}

func writeNodes(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "nodes.csv")
	if err := os.WriteFile(p, []byte("kind,count,cores,memory,gpus\ng8,4,64,524288,8\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A converted GPU trace on nodes whose jobs are mostly CPU jobs (0
// processors, a demand giving their cores, over half of Helios's) is
// simulated whole, counted under size_from_demand, and not called
// degenerate for it: the size comes from the same line.
func TestGPUCPUJobsOnNodes(t *testing.T) {
	var b strings.Builder
	for i := range 10 {
		procs, demand := 0, ";= nodes=1 cores=4"
		if i%3 == 0 {
			procs, demand = 8, ";= nodes=1 cores=48 gpus=8000"
		}
		fmt.Fprintf(&b, "%s\n%d %d -1 %d %d -1 -1 %d %d -1 1 1 -1 -1 1 -1 -1 -1\n", demand, i+1, 100*i, 500+10*i, procs, procs, 1000)
	}
	log := writeTrace(t, t.TempDir(), "gpu.swf", b.String())
	m := runJSON(t, "-nodes", writeNodes(t), log)
	if m["jobs_simulated"] != float64(10) {
		t.Errorf("simulated %v, want all 10", m["jobs_simulated"])
	}
	if c, _ := m["changed"].(map[string]any); c["size_from_demand"] != float64(10) {
		t.Errorf("changed %v, want size_from_demand 10 (6 CPU jobs, 4 GPU jobs of 8 GPUs and 48 cores)", m["changed"])
	}
	if w, _ := json.Marshal(m["warnings"]); strings.Contains(string(w), "degenerate") {
		t.Errorf("warnings %s: size_from_demand makes no schedule degenerate", w)
	}
}

// The converted PAI sample is accepted: on one pool of 64 GPUs its CPU job
// (0 processors) is no_size and its two jobs without a run time (one
// never started, one without tasks) no_run_time; on nodes of 8 GPUs the
// CPU job is sized from its demand and the GPU-sharing job (3 instances
// of half a GPU) placed.
func TestGPUPAIAccepted(t *testing.T) {
	log := clitest.PAIFile(t)
	// The raw tables: convert both first.
	for _, n := range []string{"gpu-pai-job.csv", "gpu-pai-task.csv"} {
		code, _, errs := runCmd(t, "../../swf/convert/testdata/"+n, "-machine", "64")
		if code == 0 || !strings.Contains(errs, "a table of the Alibaba PAI 2020 trace, not an SWF log: convert it first: convert -from gpu pai_job_table.csv pai_task_table.csv") {
			t.Errorf("%s: exit %d, %q", n, code, errs)
		}
	}
	nodes := writeTrace(t, t.TempDir(), "nodes.csv", "kind,count,cores,memory,gpus\ng8,8,96,524288,8\n")
	for _, c := range []struct {
		args      []string
		simulated float64
		rejected  map[string]any
	}{
		{[]string{"-machine", "64"}, 4, map[string]any{"no_size": 1.0, "no_run_time": 2.0}},
		{[]string{"-nodes", nodes}, 5, map[string]any{"no_run_time": 2.0}},
	} {
		m := runJSON(t, append(c.args, log)...)
		if m["jobs_simulated"] != c.simulated || !reflect.DeepEqual(m["rejected"], c.rejected) {
			t.Errorf("%v: simulated %v, rejected %v; want %v, rejected %v", c.args, m["jobs_simulated"], m["rejected"], c.simulated, c.rejected)
		}
	}
}
