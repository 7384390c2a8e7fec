package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
)

// A checkpointed job's partial-execution lines (status 2, 3, 4, under its
// summary line's number) are not jobs: counted as partial executions, not
// as duplicates, and left out of the jobs, the offered load and the
// estimate counts, as the simulators leave them out. They were 3 jobs
// with a duplicate number each and doubled the load.
func TestPartialExecutionsNotJobs(t *testing.T) {
	log := "; MaxProcs: 10\n" +
		"1 0 0 300 10 -1 -1 10 400 -1 1 1 1 1 1 -1 -1 -1\n" + // the summary line: 300 s in all
		"1 0 0 100 10 -1 -1 10 400 -1 2 1 1 1 1 -1 -1 -1\n" +
		"1 200 0 200 10 -1 -1 10 400 -1 3 1 1 1 1 -1 -1 -1\n" +
		"2 1000 0 100 10 -1 -1 10 50 -1 1 1 1 1 1 -1 -1 -1\n"
	var out, errs bytes.Buffer
	s := summaryOf(t, log)
	// (300 + 100) s × 10 / (10 × 1000 s)
	if s.Jobs != 2 || s.PartialExecs != 2 || s.DuplicateIDs != 0 || s.WithEstimate != 2 || s.OverEstimate != 1 ||
		s.OfferedLoad == nil || *s.OfferedLoad != 0.4 || len(s.Queues) != 1 || s.Queues[0].Jobs != 2 {
		t.Errorf("%+v", s)
	}
	out.Reset()
	run(context.Background(), []string{"-"}, strings.NewReader(log), &out, &errs)
	for _, want := range []string{`(?m)^jobs +2$`, `(?m)^partial executions +2 \(status 2, 3, 4`, `(?m)^offered load +40\.0%`} {
		if !regexp.MustCompile(want).MatchString(out.String()) {
			t.Errorf("text lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "duplicate") {
		t.Errorf("text counts duplicates:\n%s", out.String())
	}
}

// A partial line holds no number: the summary line after it is no
// duplicate (sched rejects only the partial lines, whatever their
// order), and one without a number is not among the lines the
// simulators number. swfstat said 1 duplicate and 2 without a number.
func TestPartialLineHoldsNoNumber(t *testing.T) {
	log := "; MaxProcs: 10\n" +
		"1 0 0 100 10 -1 -1 10 400 -1 2 1 1 1 1 -1 -1 -1\n" + // a partial line before its summary line
		"1 0 0 300 10 -1 -1 10 400 -1 1 1 1 1 1 -1 -1 -1\n" +
		"-1 100 0 100 10 -1 -1 10 400 -1 3 1 1 1 1 -1 -1 -1\n" +
		"-1 200 0 100 10 -1 -1 10 400 -1 4 1 1 1 1 -1 -1 -1\n"
	s := summaryOf(t, log)
	if s.Jobs != 1 || s.PartialExecs != 3 || s.DuplicateIDs != 0 || s.NoJobNumber != 0 {
		t.Errorf("jobs %d, partial %d, duplicates %d, without number %d; want 1, 3, 0, 0", s.Jobs, s.PartialExecs, s.DuplicateIDs, s.NoJobNumber)
	}
}

// A job given by partial lines alone (no summary line under its number,
// before or after them) is left out whole by every simulator: swfstat
// counts it, where it had said only "partial executions" of jobs "whose
// summary line carries the whole run", and the job was in no count.
func TestPartialOnlyJobsCounted(t *testing.T) {
	log := "; MaxProcs: 10\n" +
		"1 0 0 100 10 -1 -1 10 400 -1 2 1 1 1 1 -1 -1 -1\n" + // job 1: partial lines before its summary line
		"1 0 0 300 10 -1 -1 10 400 -1 1 1 1 1 1 -1 -1 -1\n" +
		"2 50 0 100 10 -1 -1 10 400 -1 2 1 1 1 1 -1 -1 -1\n" + // job 2: partial lines only
		"2 50 0 200 10 -1 -1 10 400 -1 3 1 1 1 1 -1 -1 -1\n" +
		"3 60 0 100 10 -1 -1 10 400 -1 1 1 1 1 1 -1 -1 -1\n" + // job 3: summary line, then its partial lines
		"3 60 0 100 10 -1 -1 10 400 -1 4 1 1 1 1 -1 -1 -1\n" +
		"4 70 0 100 10 -1 -1 10 400 -1 4 1 1 1 1 -1 -1 -1\n" + // job 4: one partial line only
		"1 80 0 100 10 -1 -1 10 400 -1 3 1 1 1 1 -1 -1 -1\n" // job 1's last part, after its summary
	s := summaryOf(t, log)
	if s.Jobs != 2 || s.PartialExecs != 6 || s.PartialOnly != 2 {
		t.Errorf("jobs %d, partial lines %d, partial-only jobs %d; want 2, 6, 2", s.Jobs, s.PartialExecs, s.PartialOnly)
	}
	var out, errs bytes.Buffer
	run(context.Background(), []string{"-"}, strings.NewReader(log), &out, &errs)
	if !regexp.MustCompile(`(?m)^jobs of partial lines only +2 \(no summary line`).MatchString(out.String()) {
		t.Errorf("text lacks the partial-only jobs:\n%s", out.String())
	}
	// A log whose every partial line has its summary line says nothing.
	s = summaryOf(t, "; MaxProcs: 10\n1 0 0 300 10 -1 -1 10 400 -1 1 1 1 1 1 -1 -1 -1\n1 0 0 100 10 -1 -1 10 400 -1 3 1 1 1 1 -1 -1 -1\n")
	if s.PartialOnly != 0 {
		t.Errorf("partial-only jobs %d, want 0", s.PartialOnly)
	}
	out.Reset()
	run(context.Background(), []string{"-"}, strings.NewReader("; MaxProcs: 10\n1 0 0 300 10 -1 -1 10 400 -1 1 1 1 1 1 -1 -1 -1\n"), &out, &errs)
	if strings.Contains(out.String(), "partial lines only") {
		t.Errorf("text names partial-only jobs in a log without them:\n%s", out.String())
	}
}
