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
