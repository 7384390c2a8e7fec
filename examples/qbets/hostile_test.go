package main

import (
	"bytes"
	"strings"
	"testing"
)

// The tables' footnote on a directory whose logs all have waits and whose
// queues are all below -min: it named an empty list ("Traces without
// waits: .") and left the empty tables unexplained.
func TestSkipsFootnote(t *testing.T) {
	var b bytes.Buffer
	(&measured{rows: [][]row{nil, nil}, small: 3, minJobs: 1000, logs: 3}).skips(&b)
	if got, want := b.String(), "Traces without waits: none. 3 queues with fewer than 1000 jobs skipped: no queue is left, the tables are empty (lower -min).\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	b.Reset()
	(&measured{rows: [][]row{{{}}, nil}, noWaits: []string{"NASA"}, small: 1, minJobs: 1000}).skips(&b)
	if got, want := b.String(), "Traces without waits: NASA. 1 queues with fewer than 1000 jobs skipped.\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// -plot with logs to score, and -plot-days ≤ 0, are usage errors: the
// figure is drawn over -traces' logs only, and -plot was dropped without
// a word when logs were given (exit 0).
func TestPlotFlagsChecked(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"-plot", dir, "some.swf"},
		{"-plot-days", "-1"},
		{"-plot-days", "0", "-plot", dir},
	} {
		var out, errs strings.Builder
		if code := command(args, &out, &errs); code != 2 || !strings.Contains(errs.String(), "-plot") {
			t.Errorf("%q: exit %d, %q; want 2 naming -plot", args, code, errs.String())
		}
	}
}
