package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
