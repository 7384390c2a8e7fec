package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// "-" as run -out, report -plot or slurm -out is a usage error (each made
// a directory named "-", slurm a script whose every task failed so);
// merge -o - is standard output, its default (it made a file named "-").
func TestDashOutputs(t *testing.T) {
	dir := t.TempDir()
	spec := easySpec(t, dir, "; MaxProcs: 8\n"+
		"1 0 0 100 1 -1 -1 1 200 -1 1 1 1 1 1 -1 -1 -1\n"+
		"2 10 0 100 2 -1 -1 2 200 -1 1 1 1 1 1 -1 -1 -1\n")
	out := filepath.Join(dir, "out")
	mustRun(t, "run", "-spec", spec, "-out", out)
	t.Chdir(t.TempDir())
	for _, args := range [][]string{
		{"run", "-spec", spec, "-out", "-"},
		{"report", "-spec", spec, "-plot", "-", out},
		{"slurm", "-spec", spec, "-out", "-"},
	} {
		code, _, errs := sweep(t, nil, args...)
		if flag := args[3]; code != 2 || !strings.Contains(errs, flag+" -: ") {
			t.Errorf("%q: exit %d, %q; want a usage error naming %s -", args, code, errs, flag)
		}
	}
	merged := mustRun(t, "merge", "-spec", spec, "-o", "-", out)
	if !strings.HasPrefix(merged, `{"run":0,`) {
		t.Errorf("merge -o -: stdout %.60q; want the lines", merged)
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error(`a file or directory named "-" was made`)
	}
}

// easySpec writes log as dir/t.swf and a spec dir/s.json of one EASY run
// on it (named x, the machine the log's header gives); it returns the
// spec's path.
func easySpec(t *testing.T, dir, log string) string {
	t.Helper()
	trace, spec := filepath.Join(dir, "t.swf"), filepath.Join(dir, "s.json")
	js := `{"name": "x", "traces": [{"name": "t", "file": "` + trace + `"}], "policies": ["EASY"]}`
	if err := os.WriteFile(trace, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(spec, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	return spec
}
