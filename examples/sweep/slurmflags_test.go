package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// A bad number to sweep slurm names its flag and value, exit 2: the
// message was one for all four flags ("-tasks, -throttle must be ≥ 0,
// -runs-per-task and -j ≥ 1").
func TestSlurmFlagNamed(t *testing.T) {
	spec := filepath.Join("specs", "fig43.json")
	for _, c := range []struct{ flag, value, want string }{
		{"-tasks", "-3", "sweep: slurm: -tasks -3: want ≥ 0"},
		{"-runs-per-task", "0", "sweep: slurm: -runs-per-task 0: want ≥ 1"},
		{"-throttle", "-1", "sweep: slurm: -throttle -1: want ≥ 0"},
		{"-j", "0", "sweep: slurm: -j 0: want ≥ 1"},
	} {
		code, out, errs := sweep(t, nil, "slurm", "-spec", spec, c.flag, c.value)
		if code != 2 || out != "" || !strings.HasPrefix(errs, c.want) {
			t.Errorf("%s %s: exit %d, stderr %q; want 2 and %q", c.flag, c.value, code, errs, c.want)
		}
	}
}
