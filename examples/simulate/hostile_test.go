package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// A header that names the machine size in a form not read as one (0, a
// negative number, a word) is quoted, as forecast, replay and varq quote
// it, not called absent.
func TestUnreadableMachineSizeNamed(t *testing.T) {
	dir := t.TempDir()
	body := small[strings.Index(small, "   1 "):]
	for _, c := range []struct{ line, want string }{
		{"; MaxProcs: 0\n", `"; MaxProcs: 0" gives no machine size`},
		{"; MaxProcs: -5\n; MaxNodes: -5\n", `"; MaxProcs: -5" gives no machine size`},
		{"; MaxNodes: lots\n", `"; MaxNodes: lots" gives no machine size`},
		{"", "header has neither MaxProcs nor MaxNodes"},
	} {
		p := writeTrace(t, dir, "m.swf", c.line+body)
		code, out, errs := runCmd(t, p)
		if code != 1 || out != "" || !strings.Contains(errs, c.want) || !strings.Contains(errs, "pass -machine") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 1 and %q", c.line, code, out, errs, c.want)
		}
	}
}

// A -slurm-conf file without a single setting (empty, blank or comments
// only) is an error: it simulated Slurm's defaults without a word.
func TestEmptySlurmConfRefused(t *testing.T) {
	dir := t.TempDir()
	tr := writeTrace(t, dir, "t.swf", small)
	for _, text := range []string{"", "\n  \n", "# a comment\n   # another\n"} {
		conf := writeTrace(t, dir, "slurm.conf", text)
		code, out, errs := runCmd(t, "-slurm-conf", conf, tr)
		if code != 1 || out != "" || !strings.Contains(errs, "no setting in it") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 1, no setting", text, code, out, errs)
		}
	}
	conf := writeTrace(t, dir, "slurm.conf", "# site\nPriorityWeightAge=1000\n")
	if code, _, errs := runCmd(t, "-slurm-conf", conf, tr); code != 0 {
		t.Errorf("one setting: exit %d, %s", code, errs)
	}
	// A byte-order mark before the first key: the key is read, not
	// ignored as "\ufeffPriorityWeightAge".
	conf = writeTrace(t, dir, "slurm.conf", "\ufeffPriorityType=priority/multifactor\nPriorityWeightAge=1000\n")
	if code, _, errs := runCmd(t, "-slurm-conf", conf, tr); code != 0 || strings.Contains(errs, "ignored") {
		t.Errorf("BOM: exit %d, %s", code, errs)
	}
}

// A log of which every job is rejected (no run time anywhere) prints its
// report, which says so, and exits 1, as forecast, qbets, replay and varq
// do on a log with nothing to work on: 0 simulated jobs is no result.
func TestNothingSimulatedIsAnError(t *testing.T) {
	log := "; MaxProcs: 8\n1 0 -1 -1 1 -1 -1 1 100 -1 1 1 1 1 1 -1 -1 -1\n2 10 -1 -1 1 -1 -1 1 100 -1 1 1 1 1 1 -1 -1 -1\n"
	p := writeTrace(t, t.TempDir(), "none.swf", log)
	for _, args := range [][]string{{p}, {p, "-json"}} {
		code, out, errs := runCmd(t, args...)
		if code != 1 || !strings.Contains(out, "no job was simulated") || !strings.Contains(errs, "every one of the 2 read was rejected (2 no run time)") {
			t.Errorf("%q: exit %d, stderr %q, stdout:\n%s", args, code, errs, out)
		}
	}
}

// A run that simulated no job writes neither -out nor -jobs-out: it left
// a schedule of a header alone and a CSV of column names behind its exit
// status 1, files a script took for a result. A file already there is
// left as it was, and the error names what was not written.
func TestNothingSimulatedWritesNoOutput(t *testing.T) {
	dir := t.TempDir()
	log := "; MaxProcs: 8\n1 0 -1 -1 1 -1 -1 1 100 -1 1 1 1 1 1 -1 -1 -1\n"
	p := writeTrace(t, dir, "none.swf", log)
	out, jobs := filepath.Join(dir, "s.swf"), filepath.Join(dir, "j.csv.gz")
	code, _, errs := runCmd(t, p, "-out", out, "-jobs-out", jobs)
	if code != 1 || !strings.Contains(errs, "-out "+out+" and -jobs-out "+jobs+" not written") {
		t.Errorf("exit %d, stderr %q; want 1 naming the files not written", code, errs)
	}
	for _, f := range []string{out, jobs} {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("%s: written (stat: %v)", filepath.Base(f), err)
		}
	}
	old := writeTrace(t, dir, "old.swf", "an earlier schedule\n")
	if code, _, _ := runCmd(t, "-out", old, p); code != 1 {
		t.Errorf("-out over an old file: exit %d, want 1", code)
	}
	if b, _ := os.ReadFile(old); string(b) != "an earlier schedule\n" {
		t.Errorf("old -out file overwritten: %q", b)
	}
}

// A header whose machine size sched refuses (above 2^40 processors) is
// named with the file, as -machine's bound is: the run said only "sched:
// MachineSize 9223372036854775807 above 2^40", naming no file.
func TestHugeHeaderMachineSizeNamed(t *testing.T) {
	dir := t.TempDir()
	body := small[strings.Index(small, "   1 "):]
	for _, line := range []string{"; MaxProcs: 9223372036854775807\n", "; MaxNodes: 1099511627777\n"} {
		p := writeTrace(t, dir, "huge.swf", line+body)
		for _, args := range [][]string{{p}, {p, "-compat", "pyss"}, {p, "-check", "-kill"}} {
			code, out, errs := runCmd(t, args...)
			if code != 1 || out != "" || !strings.Contains(errs, "huge.swf: machine size") || !strings.Contains(errs, "above 2^40 processors; pass -machine") {
				t.Errorf("%q %q: exit %d, stdout %q, stderr %q; want 1 naming the file", line, args[1:], code, out, errs)
			}
		}
		if code, _, errs := runCmd(t, p, "-machine", "8"); code != 0 {
			t.Errorf("%q -machine 8: exit %d, %s", line, code, errs)
		}
	}
}

// A log line submitted at 2^63−1 is rejected (time out of range) under
// -slurm-conf as under every policy: the run hung, its hourly steps
// wrapping past 2^63 on their way to that submit time.
func TestSlurmSubmitMaxInt64(t *testing.T) {
	dir := t.TempDir()
	tr := writeTrace(t, dir, "t.swf", "; MaxProcs: 256\n"+
		"1 5094 -1 12072 16 -1 -1 -1 -1 -1 1 -1 -1 -1 0 -1 -1 -1\n"+
		"2 9223372036854775807 -1 2 1 -1 -1 -1 -1 -1 1 -1 -1 -1 0 -1 -1 -1\n")
	conf := writeTrace(t, dir, "slurm.conf", "PriorityWeightAge=1000\n")
	// A deadline, not a goroutine left spinning: Run checks its context
	// between its steps.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	code := runContext(ctx, []string{"-slurm-conf", conf, tr}, strings.NewReader(""), &stdout, &stderr)
	if ctx.Err() != nil {
		t.Fatal("-slurm-conf on a submit time of 2^63−1 did not end in 30 s")
	}
	out, errs := stdout.String(), stderr.String()
	if code != 0 || !regexp.MustCompile(`(?m)^  time out of range +1$`).MatchString(out) {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", code, errs, out)
	}
}

// One line out of order is "1 job line", not "1 job lines".
func TestOutOfOrderSingular(t *testing.T) {
	p := writeTrace(t, t.TempDir(), "ooo.swf", "; MaxProcs: 4\n"+
		"1 10 0 100 1 -1 -1 1 200 -1 1 1 1 -1 -1 -1 -1 -1\n"+
		"2 5 0 100 1 -1 -1 1 200 -1 1 1 1 -1 -1 -1 -1 -1\n")
	if code, out, _ := runCmd(t, p); code != 0 || !strings.Contains(out, "1 job line earlier than the line before them") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}
