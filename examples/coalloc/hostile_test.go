package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// Requests are made from the end of the 7-day warm-up to day -days, so a
// -days of 7 or less has none: a usage error that says so, not "empty
// trial period" (exit 1); and the heading says which days carry requests
// (it said "N days of requests after a 7-day warm-up" while the requests
// stop at day N).
func TestDaysWithinWarmup(t *testing.T) {
	dir := t.TempDir()
	a := clitest.WriteTrace(t, dir, "a.swf", 1500, 16)
	var out, errs bytes.Buffer
	code := run(context.Background(), []string{"-trace", a + "," + a, "-days", "5"}, strings.NewReader(""), &out, &errs)
	if code != cli.ExitUsage || !strings.Contains(errs.String(), "warm-up") {
		t.Errorf("-days 5: exit %d, %q; want 2 naming the 7-day warm-up", code, errs.String())
	}
	out.Reset()
	opt := options{paths: []string{a, a}, days: 9, count: 2, step: 30, trials: table62[:1]}
	if err := reproduce(&out, opt); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "requests on days 7–9 (after a 7-day warm-up)") {
		t.Errorf("heading:\n%s", out.String())
	}
}
