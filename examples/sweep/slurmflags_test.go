package main

import (
	"os/exec"
	"path/filepath"
	"slices"
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

// The script's words reach the tasks as given: -out with "$" or "'" was
// in JSON's double quotes, which the shell expands ("r$HOME" made every
// task write to another directory than merge reads); a line break in
// -time or -partition made the rest of the word a command of the script;
// -j above run's bound wrote a script whose every task exits 2.
func TestSlurmScriptWords(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	spec := filepath.Join("specs", "fig43.json")
	out := `r$HOME 'x' "y" ` + "`z`"
	code, script, errs := sweep(t, nil, "slurm", "-spec", spec, "-out", out, "-bin", "./my sweep")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var line string
	for l := range strings.SplitSeq(script, "\n") {
		if strings.HasPrefix(l, "exec ") {
			line = l
		}
	}
	// The exec line's words as bash splits them, one a line.
	cmd := exec.Command(bash, "-c", `printf '%s\n' `+strings.TrimPrefix(line, "exec "))
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	words := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
	if words[0] != "./my sweep" || !slices.Contains(words, out) {
		t.Errorf("exec line %q: words %q, want the binary and -out as given", line, words)
	}
	for _, c := range [][]string{{"-time", "1:00:00\ntouch /tmp/owned"}, {"-partition", "p\rq"}, {"-j", "5000"}, {"-out", ""}} {
		code, script, errs := sweep(t, nil, "slurm", "-spec", spec, c[0], c[1])
		if code != 2 || script != "" || !strings.Contains(errs, "sweep: slurm: "+c[0]) {
			t.Errorf("%s %q: exit %d, stderr %q", c[0], c[1], code, errs)
		}
	}
}

// run -out "" is a usage error naming it: it was exit 1, "mkdir : no
// such file or directory".
func TestRunEmptyOut(t *testing.T) {
	code, _, errs := sweep(t, nil, "run", "-spec", filepath.Join("specs", "fig43.json"), "-out", "")
	if code != 2 || !strings.Contains(errs, `-out ""`) {
		t.Errorf("exit %d, stderr %q; want 2 naming -out", code, errs)
	}
}
