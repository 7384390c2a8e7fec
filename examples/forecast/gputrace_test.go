package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"github.com/batchq/batchq/examples/internal/cli/clitest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// A GPU cluster job table (Helios, Acme, Philly), plain, gzip or on
// standard input, given as the trace is named and the command says to
// convert it first, rather than calling it a bad job number.
func TestGPUTraceConvertFirst(t *testing.T) {
	const dir = "../../swf/convert/testdata/"
	nodes := filepath.Join(t.TempDir(), "nodes.csv")
	if err := os.WriteFile(nodes, []byte(gpuNodesCSV), 0o644); err != nil {
		t.Fatal(err)
	}
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
			{"", []string{dir + in}},
			{"", []string{zpath}},
			{"", []string{"-nodes", nodes, dir + in}},
			{string(data), []string{"-"}},
		} {
			var out, errs bytes.Buffer
			code := run(context.Background(), c.args, strings.NewReader(c.stdin), &out, &errs)
			if code == 0 || !strings.Contains(errs.String(), want) {
				t.Errorf("%s %v: exit %d, stderr %q; want %q", in, c.args, code, errs.String(), want)
			}
		}
	}
}

// The converted Alibaba PAI 2020 sample (swf/convert's hand-written job
// and task tables) is accepted on one pool of 64 GPUs and on 8 nodes of 8
// GPUs: the 5 jobs with a wait are replayed and scored, the others
// counted (2 without a wait; on nodes one of them rejected first, for no
// run time).
func TestGPUPAIAccepted(t *testing.T) {
	dir := clitest.PAITables
	log := clitest.PAIFile(t)
	_, converted, err := swf.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	nodes := filepath.Join(t.TempDir(), "nodes.csv")
	if err := os.WriteFile(nodes, []byte("kind,count,cores,memory,gpus\ng8,8,96,524288,8\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{dir + "gpu-pai-job.csv", dir + "gpu-pai-task.csv"} {
		var out, errs bytes.Buffer
		code := run(context.Background(), []string{"-trace", raw}, strings.NewReader(""), &out, &errs)
		if code == 0 || !strings.Contains(errs.String(), "a table of the Alibaba PAI 2020 trace, not an SWF log: convert it first: convert -from gpu pai_job_table.csv") {
			t.Errorf("%s: exit %d, %q", raw, code, errs.String())
		}
	}
	for _, args := range [][]string{{"-machine", "64"}, {"-nodes", nodes}} {
		var out, errs bytes.Buffer
		code := run(context.Background(), append(args, "-trace", log, "-predictors", "forecast,naive", "-json"), strings.NewReader(""), &out, &errs)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs.String())
		}
		dec := json.NewDecoder(&out)
		for dec.More() {
			var m struct {
				Predictor      string         `json:"predictor"`
				Scored         int            `json:"scored"`
				Jobs           int            `json:"jobs"`
				Replayed       int            `json:"replayed"`
				SkippedNoWait  int            `json:"skipped_no_wait"`
				Rejected       map[string]int `json:"rejected"`
				ReplayedNoSize int            `json:"replayed_no_size"`
			}
			if err := dec.Decode(&m); err != nil {
				t.Fatal(err)
			}
			rejected := 0
			for _, n := range m.Rejected {
				rejected += n
			}
			if m.Replayed != 5 || m.Scored != 5 || m.Jobs == 0 || m.Replayed+m.SkippedNoWait+rejected != len(converted) || m.ReplayedNoSize != 1 {
				t.Errorf("%v %s: %+v", args, m.Predictor, m)
			}
		}
	}
}
