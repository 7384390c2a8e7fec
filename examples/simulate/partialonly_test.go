package main

import (
	"strings"
	"testing"
)

// A job given by partial-execution lines only (no summary line under its
// number) is left out whole, its lines among the rejected partial
// executions: the report says how many such jobs, streamed or read whole
// (-check), in the text and in -json. It had said "partial execution 4"
// only, the reason of lines whose job is simulated by its summary line.
func TestPartialOnlyJobsWarned(t *testing.T) {
	const log = `; MaxProcs: 4
   1     0 -1  300 2 -1 -1 2 400 -1 1 1 1 -1 -1 -1 -1 -1
   1     0 -1  100 2 -1 -1 2 400 -1 2 1 1 -1 -1 -1 -1 -1
   1     0 -1  200 2 -1 -1 2 400 -1 3 1 1 -1 -1 -1 -1 -1
   2    10 -1  100 2 -1 -1 2 400 -1 2 2 1 -1 -1 -1 -1 -1
   2    10 -1  200 2 -1 -1 2 400 -1 4 2 1 -1 -1 -1 -1 -1
   3    20 -1  300 2 -1 -1 2 400 -1 1 2 1 -1 -1 -1 -1 -1
`
	p := writeTrace(t, t.TempDir(), "orphan.swf", log)
	const want = "1 jobs given by partial-execution lines only"
	for _, extra := range [][]string{nil, {"-check"}, {"-compat", "pyss"}} {
		args := append(append([]string{}, extra...), p)
		code, out, errs := runCmd(t, args...)
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("%v: exit %d, stderr %q; text lacks %q:\n%s", extra, code, errs, want, out)
		}
		m := runJSON(t, args...)
		d, _ := m["warning_data"].(map[string]any)["partial_only"].(map[string]any)
		if d == nil || d["jobs"] != 1.0 {
			t.Errorf("%v: warning_data.partial_only = %v, want jobs 1", extra, d)
		}
	}
	// Every partial line with its summary line: no word.
	p = writeTrace(t, t.TempDir(), "whole.swf", strings.Join(strings.Split(log, "\n")[:4], "\n")+"\n")
	if code, out, _ := runCmd(t, p); code != 0 || strings.Contains(out, "partial-execution lines only") {
		t.Errorf("exit %d; a log without partial-only jobs warned:\n%s", code, out)
	}
}

// Jobs of partial lines only are rejected jobs to the degenerate warning:
// a log of 2 whole jobs and 3 such ones simulated 2 with no such warning.
func TestPartialOnlyJobsDegenerate(t *testing.T) {
	const log = `; MaxProcs: 4
   1     0 -1  300 2 -1 -1 2 400 -1 1 1 1 -1 -1 -1 -1 -1
   2    10 -1  100 2 -1 -1 2 400 -1 2 2 1 -1 -1 -1 -1 -1
   2    10 -1  200 2 -1 -1 2 400 -1 3 2 1 -1 -1 -1 -1 -1
   3    20 -1  100 2 -1 -1 2 400 -1 4 2 1 -1 -1 -1 -1 -1
   4    30 -1  100 2 -1 -1 2 400 -1 2 2 1 -1 -1 -1 -1 -1
   4    30 -1  100 2 -1 -1 2 400 -1 4 2 1 -1 -1 -1 -1 -1
   5    40 -1  300 2 -1 -1 2 400 -1 1 1 1 -1 -1 -1 -1 -1
`
	p := writeTrace(t, t.TempDir(), "mostlyorphans.swf", log)
	const want = "3 of 5 jobs (60%) rejected (3 partial lines only), the schedule is of the rest"
	for _, extra := range [][]string{nil, {"-check"}} {
		args := append(append([]string{}, extra...), p)
		if code, out, _ := runCmd(t, args...); code != 0 || !strings.Contains(out, want) {
			t.Errorf("%v: exit %d; text lacks %q:\n%s", extra, code, want, out)
		}
		m := runJSON(t, args...)
		d, _ := m["warning_data"].(map[string]any)["degenerate"].(map[string]any)
		if d == nil || d["jobs_rejected"] != 3.0 || d["partial_lines"] != 5.0 {
			t.Errorf("%v: warning_data.degenerate = %v, want 3 jobs rejected, 5 partial lines", extra, d)
		}
	}
}
