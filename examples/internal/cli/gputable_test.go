package cli

import (
	"os"
	"strings"
	"testing"
)

// TestGPUTable: the three GPU tables are named by swf/convert's own
// sniffing, a pretty-printed or cut Philly list too; an SWF log, an
// Alibaba pod list and nothing are none.
func TestGPUTable(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile("../../../swf/convert/testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	philly := read("gpu-philly.json")
	for in, want := range map[string]string{
		read("gpu-helios.csv"):          "helios",
		read("gpu-acme-kalos.csv"):      "acme",
		read("gpu-pai-job.csv"):         "pai",
		read("gpu-pai-task.csv"):        "pai",
		philly:                          "philly",
		"[\n  " + philly[1:]:            "philly",
		philly[:len(philly)/2]:          "philly",
		"; Version: 2\n1 0 0 10 1 -1\n": "",
		"name,cpu_milli,memory_mib\n":   "",
		"":                              "",
	} {
		if got := GPUTable([]byte(in)); got != want {
			t.Errorf("GPUTable(%.40q) = %q, want %q", in, got, want)
		}
	}
	if err := ConvertFirst("F", "pai"); !strings.Contains(err.Error(), "F: a table of the Alibaba PAI 2020 trace, not an SWF log: convert it first: "+
		"convert -from gpu pai_job_table.csv pai_task_table.csv -o OUT.swf") {
		t.Errorf("ConvertFirst: %v", err)
	}
	if err := ConvertFirst("F", "acme"); !strings.Contains(err.Error(), "F: a Shanghai AI Lab Acme job table, not an SWF log: convert it first") {
		t.Errorf("ConvertFirst: %v", err)
	}
}
