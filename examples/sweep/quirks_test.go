package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// TestQuirkLogs runs a sweep over each synthetic log of the archive's
// held-out logs' quirks (clitest.Quirks): its runs (every option axis,
// a shaken and a scaled load) and its report.
func TestQuirkLogs(t *testing.T) {
	if testing.Short() {
		t.Skip("many runs (-short)")
	}
	dir := t.TempDir()
	for _, qk := range clitest.Quirks() {
		trace := filepath.Join(dir, qk.Name+".swf")
		spec := filepath.Join(dir, qk.Name+".json")
		out := filepath.Join(dir, qk.Name+".out")
		if err := os.WriteFile(trace, []byte(qk.Text), 0o644); err != nil {
			t.Fatal(err)
		}
		js := fmt.Sprintf(`{"name": "q", "traces": [{"name": "q", "file": %q}], "policies": ["EASY", "EASY++", "SJF", "conservative"],
			"loads": [0, 0.8], "seeds": [0, 3], "options": {"kill": [false, true], "compat": ["none", "pyss", "predictsim"]}}`, trace)
		if err := os.WriteFile(spec, []byte(js), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"run", "-spec", spec, "-out", out, "-j", "1"},
			{"report", "-spec", spec, out, "-json"},
			{"report", "-spec", spec, out},
		} {
			name := qk.Name + " " + strings.Join(args[:1], " ")
			r, ok := clitest.ExecBounded(run, "", args)
			if !ok {
				t.Errorf("%s: no end", name)
				break
			}
			clitest.CheckQuirkRun(t, name, qk, args, r)
			if r.Code != 0 {
				break
			}
		}
	}
}

// TestHeaderSaid: a header line the reader does not take as written (a
// MaxProcs after the jobs, or kept as text) is said by run (cli.HeaderNote;
// -json: the sidecar's header_warnings): sweep read with cli.ReadLog,
// which dropped them, and its runs used the other size without a word.
// Each run writes its own -out (TRACE.outN): a second run into the same
// one resumes, reading no trace.
func TestHeaderSaid(t *testing.T) {
	spec := filepath.Join(t.TempDir(), "q.json")
	js := `{"name": "q", "traces": [{"name": "q", "file": "q.swf"}], "policies": ["EASY"]}`
	if err := os.WriteFile(spec, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	clitest.HeaderSaid(t, run, [][]string{
		{"run", "-spec", spec, "-traces", "DIR(q.swf)", "-out", "TRACE.out1", "-j", "1"},
		{"run", "-spec", spec, "-traces", "DIR(q.swf)", "-out", "TRACE.out2", "-j", "1", "-json"},
	})
}
