package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/swf/convert"
)

// TestMachineFlagAlibaba: an SWF made by `convert -from alibaba` has no
// MaxProcs (its processors are thousandths of a core, and the pod list
// does not say the cluster's size), and varq had no way to be told it:
// it failed "header has neither MaxProcs nor MaxNodes" with nothing to
// do about it. -machine gives the size (here the node list's cores, as
// simulate -nodes takes them), the heading says it came from -machine;
// without it the error says to pass it. The size is never guessed from
// the jobs.
func TestMachineFlagAlibaba(t *testing.T) {
	pods, err := os.Open(tracetest.Path(t, "alibaba-gpu-2023/openb_pod_list_default.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer pods.Close()
	res, err := convert.Alibaba(pods, convert.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Header.MaxProcs != 0 || res.Header.MaxNodes != 0 {
		t.Fatalf("converted header has a size (%d, %d): not the case tested", res.Header.MaxProcs, res.Header.MaxNodes)
	}
	path := filepath.Join(t.TempDir(), "openb.swf")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := swf.WriteAll(f, res.Header, res.Jobs); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	nodes, err := os.Open(tracetest.Path(t, "alibaba-gpu-2023/openb_node_list_all_node.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer nodes.Close()
	kinds, _, err := convert.Nodes(nodes, convert.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var cores int64
	for _, k := range kinds {
		cores += k.Count * k.Cores
	}
	// The README's figures for the node list are these.
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var count int64
	for _, k := range kinds {
		count += k.Count
	}
	want := fmt.Sprintf("(its `cpu_milli` summed: %s\nfor `openb_node_list_all_node.csv`, %s nodes)", readme.Thousands(int(cores)), readme.Thousands(int(count)))
	if !strings.Contains(string(doc), want) {
		t.Errorf("README lacks %q", want)
	}
	cells := []string{"-fractions", "0.5", "-targets", "0.75"}

	var out, errs bytes.Buffer
	err = command(append([]string{path}, cells...), &out, &errs)
	if err == nil || !strings.Contains(err.Error(), "openb.swf: machine size unknown") || !strings.Contains(err.Error(), "pass -machine") {
		t.Errorf("without -machine: %v; want an error saying to pass -machine", err)
	}
	out.Reset()
	if err := command(append([]string{path, "-machine", fmt.Sprint(cores)}, cells...), &out, &errs); err != nil {
		t.Fatal(err)
	}
	head := fmt.Sprintf("## openb.swf: %d processors (-machine), ", cores)
	if !strings.HasPrefix(out.String(), head) || !strings.Contains(out.String(), "| 50 | 0.75 |") {
		t.Errorf("with -machine %d: want a heading %q and the cell:\n%s", cores, head, out.String())
	}
}

// -machine overrides a header's size (and says so); a size out of range is
// a usage error.
func TestMachineFlag(t *testing.T) {
	path := writeLog(t, 200, func(i int) int { return i + 1 }) // MaxProcs: 8
	cells := []string{"-fractions", "0.5", "-targets", "0.5"}
	for _, c := range []struct {
		args       []string
		head, fail string
	}{
		{nil, "## log.swf: 8 processors, 200 sane jobs", ""},
		{[]string{"-machine", "16"}, "## log.swf: 16 processors (-machine), 200 sane jobs", ""},
		{[]string{"-machine", "1"}, "", "no sane job to simulate (200 jobs read, 200 not sane: 200 larger than machine)"}, // each asks for 2
	} {
		var out, errs bytes.Buffer
		err := command(append(append([]string{path}, c.args...), cells...), &out, &errs)
		if c.fail != "" {
			if err == nil || !strings.Contains(err.Error(), c.fail) {
				t.Errorf("%v: %v; want %q", c.args, err, c.fail)
			}
		} else if err != nil || !strings.HasPrefix(out.String(), c.head) {
			t.Errorf("%v: %v, %q; want a heading %q", c.args, err, out.String(), c.head)
		}
	}
	for _, bad := range []string{"-1", "1099511627777"} {
		var out, errs bytes.Buffer
		err := command([]string{path, "-machine", bad}, &out, &errs)
		if err == nil || !strings.Contains(err.Error(), "-machine "+bad+": want") {
			t.Errorf("-machine %s: %v; want a usage error", bad, err)
		}
	}
}
