package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
)

// A -logs name that is not one of the four logs is a usage error before
// any log is read: -logs FOO exited 1, -logs SDSC,FOO ran SDSC alone
// without a word.
func TestUnknownLogIsUsageError(t *testing.T) {
	for _, v := range []string{"FOO", "SDSC,FOO", ","} {
		var out, errs bytes.Buffer
		code := run(t.Context(), []string{"-logs", v, "-dir", t.TempDir()}, strings.NewReader(""), &out, &errs)
		if code != 2 || !strings.Contains(errs.String(), "unknown log") {
			t.Errorf("-logs %q: exit %d, %q; want 2, unknown log", v, code, errs.String())
		}
	}
	if err := checkLogs("sdsc,KTH"); err != nil {
		t.Errorf("sdsc,KTH: %v", err)
	}
}

// A log file that is empty, or holds no sane job, is an error naming the
// file, as is a malformed one: an empty KTH file printed every table of 0
// jobs (exit 0), a malformed one "swf: line 1, field 1 ..." without the
// file's name.
func TestEmptyOrBadLogNamed(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"", "KTH-SP2-1996-2.1-cln.swf.gz: no job lines"}, // (as every command's: it said "no sane job (0 records)")
		{"; MaxProcs: 100\n1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n", "no sane job (1 record: 1 no submit time)"},
		{"x\n", "line 1, field 1"},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "KTH-SP2-1996-2.1-cln.swf.gz"), []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errs bytes.Buffer
		code := run(t.Context(), []string{"-logs", "KTH", "-dir", dir, "-json"}, strings.NewReader(""), &out, &errs)
		if code != 1 || !strings.Contains(errs.String(), c.want) || !strings.Contains(errs.String(), "KTH-SP2-1996-2.1-cln.swf.gz: ") {
			t.Errorf("%q: exit %d, %q; want 1 naming the file and %q", c.text, code, errs.String(), c.want)
		}
	}
	// A missing log is named once (it was "P: open P: no such file").
	var out, errs bytes.Buffer
	code := run(t.Context(), []string{"-logs", "KTH", "-dir", t.TempDir(), "-json"}, strings.NewReader(""), &out, &errs)
	if code != 1 || strings.Count(errs.String(), "KTH-SP2-1996-2.1-cln.swf.gz") != 1 {
		t.Errorf("missing: exit %d, %q; want 1 naming the file once", code, errs.String())
	}
}

// A log whose job numbers repeat (logs concatenated, a scheduler's
// numbers wrapped) has its later copies refused by the simulator, not by
// the sane filter: the tables were of the jobs left, 0 s waits over one
// job here, with "sane jobs 3" and no word of it. The job sets say how
// many the simulator refused and why, in the text and -json.
func TestRefusedJobsNoted(t *testing.T) {
	dir := t.TempDir()
	log := "; MaxProcs: 100\n" +
		"1 0 10 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"1 50 10 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"1 90 10 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n"
	if err := os.WriteFile(filepath.Join(dir, "KTH-SP2-1996-2.1-cln.swf.gz"), []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{}, {"-json"}} {
		var out, errs bytes.Buffer
		code := run(t.Context(), append([]string{"-logs", "KTH", "-dir", dir}, args...), strings.NewReader(""), &out, &errs)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, errs.String())
		}
		if !strings.Contains(out.String(), "the simulator refused 2 of the 3 sane jobs (2 duplicate ID)") {
			t.Errorf("%q: the refused jobs are not said:\n%s", args, out.String())
		}
	}
}

// A log shorter than the thesis's under its name (a part of SDSC-BLUE)
// whose sane set holds jobs sized from field 8 says it simulates fewer
// jobs than the thesis, and does not blame those jobs for a difference
// they do not make: it said "we simulate -220587 jobs more than the
// thesis" and that the thesis's count matched the jobs with an allocated
// size.
func TestShortLogFewerJobs(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("; MaxProcs: 1152\n")
	for i := range 30 {
		alloc := 8
		if i%3 == 0 {
			alloc = -1 // sized from field 8 (S5)
		}
		fmt.Fprintf(&b, "%d %d 10 100 %d -1 -1 8 200 -1 1 1 1 1 1 -1 -1 -1\n", i+1, 60*i, alloc)
	}
	if err := os.WriteFile(filepath.Join(dir, tracetest.SDSCBlue), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := run(t.Context(), []string{"-logs", "BLUE", "-dir", dir}, strings.NewReader(""), &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	s := out.String()
	if want := "On BLUE we simulate 223377 jobs fewer than the thesis (-100.0%)."; !strings.Contains(s, want) ||
		strings.Contains(s, "more than the thesis") || strings.Contains(s, "The thesis's count matches") {
		t.Errorf("want %q and no claim that the thesis left out the field-8 jobs:\n%s", want, s)
	}
	if want := "do not explain the difference: the log read is not the thesis's (30 records)"; !strings.Contains(s, want) {
		t.Errorf("want %q in:\n%s", want, s)
	}
}

// The records the sane filter leaves out are said with their reasons on
// standard error: the job-set table counts them (records against sane
// jobs) and nothing said why.
func TestNotSaneReasonsSaid(t *testing.T) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 100\n")
	for i := range 300 {
		run, size := 300+(i*53)%3000, 1+i%16
		switch i % 10 {
		case 3:
			run = 1 << 62
		case 7:
			size = 200
		}
		fmt.Fprintf(&b, "%d %d %d %d %d -1 -1 %d %d -1 1 %d 1 -1 1 -1 -1 -1\n", i+1, 600*i, (i*37)%900, run, size, size, 4000, 1+i%5)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, tracetest.KTH), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := run(t.Context(), []string{"-logs", "KTH", "-dir", dir}, strings.NewReader(""), &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if want := "tsafrir: KTH-SP2-1996-2.1-cln.swf.gz: 60 of 300 records not sane: 30 larger than machine, 30 time out of range"; !strings.Contains(errs.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, errs.String())
	}
}

// TestTraceDirNamed: a -dir that is missing or a file is named as the
// trace directory (it was "open DIR/SDSC-SP2-…: not a directory").
func TestTraceDirNamed(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ dir, want string }{
		{filepath.Join(t.TempDir(), "nope"), "tsafrir: trace directory: stat "},
		{file, "tsafrir: trace directory " + file + ": not a directory"},
	} {
		var out, errs bytes.Buffer
		code := run(t.Context(), []string{"-dir", c.dir}, strings.NewReader(""), &out, &errs)
		if code != 1 || !strings.HasPrefix(errs.String(), c.want) || strings.Contains(errs.String(), ".swf") {
			t.Errorf("-dir %s: exit %d, %q; want 1 and %q", c.dir, code, errs.String(), c.want)
		}
	}
}

// -easypred with -logs naming neither KTH nor BLUE, the experiment's
// logs, is a usage error: it ran none of the experiment and left its
// section out without a word (exit 0). With one of them it runs.
func TestEasyPredNeedsItsLogs(t *testing.T) {
	var out, errs bytes.Buffer
	code := run(t.Context(), []string{"-easypred", "-logs", "SDSC,ctc", "-dir", t.TempDir()}, strings.NewReader(""), &out, &errs)
	if code != 2 || !strings.Contains(errs.String(), "-easypred runs on KTH and BLUE") || out.Len() != 0 {
		t.Errorf("exit %d, stderr %q, stdout %q; want 2 naming -easypred", code, errs.String(), out.String())
	}
	errs.Reset()
	code = run(t.Context(), []string{"-easypred", "-logs", "SDSC,kth", "-dir", t.TempDir()}, strings.NewReader(""), &out, &errs)
	if code == 2 || strings.Contains(errs.String(), "-easypred") {
		t.Errorf("-logs SDSC,kth: exit %d, %q; want it taken (the logs missing here: exit 1)", code, errs.String())
	}
}
