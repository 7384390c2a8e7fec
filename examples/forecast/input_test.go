package main

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// A log whose every job is rejected said only "no job with a recorded
// wait and submit time", though every job had both: the error names the
// reasons the jobs were rejected for.
func TestAllRejectedSaysWhy(t *testing.T) {
	dir := t.TempDir()
	path := smallLog(t, dir, 50)
	far := rewrite(t, path, dir, "far.swf", func(js []swf.Job) []swf.Job {
		for i := range js {
			js[i].Wait = 1<<63 - 1
		}
		return js
	})
	var out, errs strings.Builder
	code := run(context.Background(), []string{far}, strings.NewReader(""), &out, &errs)
	if code != 1 || !strings.Contains(errs.String(), "rejected: 50 time out of range") {
		t.Errorf("exit %d, %q; want 1 naming 50 time out of range", code, errs.String())
	}
}

// A log of "-1" lines (no ID, no submit time, no wait) said only
// "rejected: 49 duplicate ID": each job is counted under its first fault,
// and the 50 missing submit times were hidden. The error says how many of
// the jobs read have no wait or submit time, whatever else rejected them.
func TestNoWaitsCountedWhateverRejected(t *testing.T) {
	dir := t.TempDir()
	path := smallLog(t, dir, 50)
	blank := rewrite(t, path, dir, "blank.swf", func(js []swf.Job) []swf.Job {
		for i := range js {
			js[i].ID, js[i].Submit, js[i].Wait = -1, -1, -1
		}
		return js
	})
	var out, errs strings.Builder
	code := run(context.Background(), []string{blank}, strings.NewReader(""), &out, &errs)
	if code != 1 || !strings.Contains(errs.String(), "50 of the 50 jobs read have none") || !strings.Contains(errs.String(), "rejected: 49 duplicate ID") {
		t.Errorf("exit %d, %q; want 1 naming the 50 jobs without a submit time and the 49 duplicates", code, errs.String())
	}
}

// Two traces, one of them positional, are named as given: the message
// listed an empty -trace first (got ["" "a" "b"]).
func TestTwoTracesNamed(t *testing.T) {
	var out, errs strings.Builder
	code := run(context.Background(), []string{"a.swf", "b.swf"}, strings.NewReader(""), &out, &errs)
	if code != 2 || !strings.Contains(errs.String(), `got ["a.swf" "b.swf"]`) {
		t.Errorf("exit %d, %q; want 2 listing the two traces", code, errs.String())
	}
}

// An error about a log read from standard input names standard input,
// not the temporary file it was copied to (/tmp/batchq-stdin-…/stdin).
func TestStdinNamed(t *testing.T) {
	var out, errs strings.Builder
	code := run(context.Background(), []string{"-"}, strings.NewReader("; MaxProcs: 4\n"), &out, &errs)
	if code != 1 || strings.Contains(errs.String(), "batchq-stdin") || !strings.Contains(errs.String(), "standard input") {
		t.Errorf("exit %d, %q; want 1 naming standard input", code, errs.String())
	}
}

// The README's fixed IBL and APQ are offered by -predictors (beside the
// scoreboard's rows, not in its default), in the order asked.
func TestFixedPredictorsFlag(t *testing.T) {
	o, err := parse([]string{"-predictors", "naive,ibl-median8,apq-logwait,ibl-geomean8", "x.swf"}, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"naive", "ibl-median8", "apq-logwait", "ibl-geomean8"}; !slices.Equal(o.predictors, want) {
		t.Errorf("predictors %q, want %q", o.predictors, want)
	}
	if o, err = parse([]string{"x.swf"}, io.Discard, io.Discard); err != nil || !slices.Equal(o.predictors, allPredictors) {
		t.Errorf("default predictors %q (%v), want the scoreboard's %q", o.predictors, err, allPredictors)
	}
}
