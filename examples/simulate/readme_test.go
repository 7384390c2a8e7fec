package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
)

// kthVariants are the README's runs of the command on the KTH log beside
// its example run.
var kthVariants = [][]string{
	{"-policy", "easy"},
	{"-policy", "easy++"},
	{"-policy", "easy++", "-kill"},
	{"-policy", "easy++", "-compat", "pyss"},
}

// TestReadme runs the command with each of kthVariants and compares the
// table of their results with the README's region (BATCHQ_UPDATE_README=1
// rewrites it).
func TestReadme(t *testing.T) {
	p := tracetest.Path(t, tracetest.KTH)
	var b strings.Builder
	fmt.Fprintln(&b, "| flags | jobs simulated | mean wait (min) | mean bsld | killed |")
	fmt.Fprintln(&b, "|---|---:|---:|---:|---:|")
	for _, args := range kthVariants {
		m := runJSON(t, append([]string{p}, args...)...)
		fmt.Fprintf(&b, "| `%s` | %.0f | %.1f | %.2f | %.0f |\n", strings.Join(args, " "), m["jobs_simulated"], m["mean_wait_s"].(float64)/60, m["mean_bsld"], m["killed"])
	}
	readme.Check(t, "README.md", "kth-variants", []byte(b.String()))

	out := filepath.Join(t.TempDir(), "sched.swf")
	if code, _, errs := runCmd(t, p, "-policy", "easy++", "-out", out); code != 0 {
		t.Fatalf("-out: exit %d: %s", code, errs)
	}
	f, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var hdr strings.Builder
	hdr.WriteString("```\n")
	for _, l := range strings.SplitAfter(string(f), "\n") {
		if !strings.HasPrefix(l, ";") {
			break
		}
		hdr.WriteString(l)
	}
	hdr.WriteString("```\n")
	readme.Check(t, "README.md", "out-header", []byte(hdr.String()))
}
