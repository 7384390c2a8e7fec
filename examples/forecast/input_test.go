package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
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

// A log of lines under one number without a submit time or wait said
// only "rejected: 49 duplicate ID": each job is counted under its first
// fault, and the 50 missing submit times were hidden. The error says how
// many of the jobs read have no wait or submit time, whatever else
// rejected them. (The log was of "-1" lines; a job without a number is
// no duplicate now: TestNoJobNumbersReplayed.)
func TestNoWaitsCountedWhateverRejected(t *testing.T) {
	dir := t.TempDir()
	path := smallLog(t, dir, 50)
	blank := rewrite(t, path, dir, "blank.swf", func(js []swf.Job) []swf.Job {
		for i := range js {
			js[i].ID, js[i].Submit, js[i].Wait = 7, -1, -1
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

// A trace read from standard input (-trace -) is "standard input" in the
// report, as simulate and swfstat name it: the report began "stdin: …",
// the name of the temporary copy it was read from.
func TestStdinReportNamed(t *testing.T) {
	data, err := os.ReadFile(smallLog(t, t.TempDir(), 300))
	if err != nil {
		t.Fatal(err)
	}
	var out, errs strings.Builder
	code := run(context.Background(), []string{"-trace", "-", "-predictors", "naive"}, strings.NewReader(string(data)), &out, &errs)
	if code != 0 || !strings.HasPrefix(out.String(), "standard input: 300 jobs replayed") || strings.Contains(out.String()+errs.String(), "stdin") {
		t.Errorf("exit %d, stderr %q, report:\n%s\nwant it to begin \"standard input: 300 jobs replayed\", no \"stdin\"", code, errs.String(), out.String())
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

// A log whose lines carry no job number (-1, SWF's "missing") is
// replayed whole, each job numbered -n by its line and counted as
// simulate counts it (id_made_up), in the text and in -json's
// "changed": all but the first were rejected as duplicate IDs, since
// the predictors key jobs by number.
func TestNoJobNumbersReplayed(t *testing.T) {
	dir := t.TempDir()
	path := smallLog(t, dir, 400)
	noID := rewrite(t, path, dir, "noid.swf", func(js []swf.Job) []swf.Job {
		for i := range js {
			js[i].ID = -1
		}
		return js
	})
	code, out, errs := runCmd(t, noID)
	if code != 0 || !strings.Contains(out, "400 jobs replayed") || strings.Contains(out, "rejected") ||
		!strings.Contains(out, "400 jobs without a job number (field 1 below 1) numbered 10^18 + n by their line n (id_made_up)") {
		t.Errorf("exit %d, %s; text:\n%s\nwant 400 jobs replayed, none rejected, 400 numbered", code, errs, out)
	}
	code, out, errs = runCmd(t, noID, "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var r struct {
			Changed  map[string]int `json:"changed"`
			Rejected map[string]int `json:"rejected"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if r.Changed["id_made_up"] != 400 || len(r.Rejected) != 0 {
			t.Errorf("-json: changed %v, rejected %v; want id_made_up 400 and none", r.Changed, r.Rejected)
		}
	}
}
