package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeLog writes n one-processor jobs a minute apart on 8 processors,
// job i numbered id(i), and returns the path.
func writeLog(t *testing.T, n int, id func(int) int) string {
	var b strings.Builder
	b.WriteString("; MaxProcs: 8\n")
	for i := range n {
		fmt.Fprintf(&b, "%d %d 0 900 2 -1 -1 2 1800 -1 1 1 1 1 1 -1 -1 -1\n", id(i), 60*i)
	}
	p := filepath.Join(t.TempDir(), "log.swf")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A log whose job numbers repeat is read with the later jobs under a
// number rejected and counted in the heading: the simulator rejected them
// silently, so the run without VARQ held one job (makespan 0.0 d, mean
// wait 0 s) while the VARQ runs held more under new numbers, and their
// makespan read +9166.6%.
func TestDuplicateNumbers(t *testing.T) {
	path := writeLog(t, 200, func(i int) int { return 1 + i%50 })
	w, err := loadWorkload(path, 0, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.jobs) != 50 || w.dups != 150 {
		t.Fatalf("%d jobs kept, %d duplicates; want 50 and 150", len(w.jobs), w.dups)
	}
	var out, errs bytes.Buffer
	if err := command([]string{"-trace", path, "-fractions", "0.5", "-targets", "0.5"}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "150 duplicate ID") {
		t.Errorf("heading does not count the duplicates:\n%s", out.String())
	}
}

// A log without a sane job is an error naming that, not a table of zeros
// with a makespan of +NaN%.
func TestNoSaneJob(t *testing.T) {
	path := writeLog(t, 0, nil)
	var out, errs bytes.Buffer
	err := command([]string{"-trace", path, "-fractions", "0.5", "-targets", "0.5"}, &out, &errs)
	if err == nil || !strings.Contains(err.Error(), "no sane job") || strings.Contains(out.String(), "NaN") {
		t.Errorf("error %v, output %q; want an error saying no sane job", err, out.String())
	}
}

// -jobs and -every below 0, and -every above 2^40 s, are usage errors
// before any trace is read: -jobs -1 ran the whole log as 0 does (exit
// 0), -every -5 and -every 2^63−1 failed after reading the traces with
// varq's "negative Step or Every" and "Step or Every above 2^40 s"
// (exit 1, no flag named).
func TestNegativeCountsAreUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"-jobs", "-1"}, {"-every", "-5"}, {"-every", "9223372036854775807"}, {"-every", "1099511627777"}} {
		var out, errs bytes.Buffer
		code := run(t.Context(), append([]string{"-trace", "no-such.swf"}, args...), strings.NewReader(""), &out, &errs)
		if code != 2 || !strings.Contains(errs.String(), args[0]+" "+args[1]) {
			t.Errorf("%q: exit %d, %q; want 2 naming %s", args, code, errs.String(), args[0])
		}
	}
}

// A cell with no accepted VARQ job has no mean: its predicted and
// achieved probabilities and its used/required ratio print "–", not
// 0.00, as the thesis's missing cells do.
func TestEmptyCellHasNoMeans(t *testing.T) {
	var b bytes.Buffer
	printRow(&b, cell{fraction: 0.1, target: 0.5}, cell{})
	if row := b.String(); !strings.HasPrefix(row, "| 10 | 0.50 | – | 0.54 | – | 0.66 | 0 | 359 | 0 | – |") {
		t.Errorf("row %q", row)
	}
}

// A header whose machine size sched refuses (above 2^40 processors) is an
// error naming the log: it was sched's "MachineSize 9223372036854775807
// above 2^40", which names none.
func TestHugeMachineSizeNamesLog(t *testing.T) {
	path := writeLog(t, 20, func(i int) int { return i + 1 })
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	huge := strings.Replace(string(data), "; MaxProcs: 8", "; MaxProcs: 9223372036854775807", 1)
	if err := os.WriteFile(path, []byte(huge), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	err = command([]string{"-trace", path, "-fractions", "0.5", "-targets", "0.5"}, &out, &errs)
	if err == nil || !strings.Contains(err.Error(), "log.swf: machine size 9223372036854775807 above 2^40") {
		t.Errorf("error %v; want one naming log.swf and the size", err)
	}
}

// A value given twice in -fractions or -targets (0.5 and 0.50 alike) is
// a usage error naming both: each of its cells was simulated twice and
// printed twice (exit 0).
func TestListValueTwice(t *testing.T) {
	for _, args := range [][]string{{"-targets", "0.5,0.50"}, {"-fractions", "0.1,0.2,0.1"}} {
		var out, errs bytes.Buffer
		code := run(t.Context(), append([]string{"-trace", "no-such.swf"}, args...), strings.NewReader(""), &out, &errs)
		if code != 2 || !strings.Contains(errs.String(), args[0]+": ") || !strings.Contains(errs.String(), "twice") {
			t.Errorf("%q: exit %d, %q; want 2 naming %s", args, code, errs.String(), args[0])
		}
	}
}
