package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

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

// A log whose job numbers repeat lost its repeated jobs to the simulator's
// duplicate-ID rule in silence (as it lost its jobs that are not sane),
// and a trial that executed no co-allocation printed NaN as its standard
// error. The machine's jobs left out are now counted by reason on the
// warning writer, and the cell is "–" with a line under the table.
func TestDroppedJobsCounted(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("; MaxProcs: 16\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "%d %d 0 600 2 -1 -1 2 1200 -1 1 1 1 1 1 -1 -1 -1\n", 1+i%7, 300*i)
	}
	b.WriteString("3001 0 0 -1 2 -1 -1 2 1200 -1 1 1 1 1 1 -1 -1 -1\n") // no run time
	dup := filepath.Join(dir, "dup.swf")
	if err := os.WriteFile(dup, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	a := clitest.WriteTrace(t, dir, "a.swf", 1500, 16)
	var out, warn bytes.Buffer
	opt := options{paths: []string{dup, a}, days: 9, count: 2, step: 30, trials: table62[:1], warn: &warn}
	if err := reproduce(&out, opt); err != nil {
		t.Fatal(err)
	}
	if want := "dup.swf: 7 of 3001 jobs simulated: 2993 duplicate ID, 1 no run time"; !strings.Contains(warn.String(), want) {
		t.Errorf("warnings %q lack %q", warn.String(), want)
	}
	if strings.Contains(out.String(), "NaN") || !strings.Contains(out.String(), "executed no co-allocation") ||
		!strings.Contains(out.String(), "| – | 0.901 | 0 |") || !strings.Contains(out.String(), "| – | – | – | – |") {
		t.Errorf("table of a trial without a co-allocation:\n%s", out.String())
	}
}

// -step and -count bound the work: -step 0 or negative never advanced the
// machines' clocks (the run hung), -count 100000000 allocated requests
// until the process died, -count 0 ran as 2 and a count above the
// machines asked for a plan that is never possible (no machine serves
// two reservations). Each is a usage error now, before any log is read.
func TestStepAndCountBounded(t *testing.T) {
	for _, args := range [][]string{
		{"-step", "0"}, {"-step", "-5"}, {"-step", "3601"},
		{"-count", "0"}, {"-count", "-1"}, {"-count", "3"}, {"-count", "100000000"},
	} {
		var out, errs bytes.Buffer
		a := append([]string{"-trace", "no-such-a.swf,no-such-b.swf", "-days", "8"}, args...)
		code := run(context.Background(), a, strings.NewReader(""), &out, &errs)
		if code != cli.ExitUsage || !strings.Contains(errs.String(), args[0]+" "+args[1]) {
			t.Errorf("%q: exit %d, %q; want 2 naming %s", args, code, errs.String(), args[0])
		}
	}
}

// -days near the int64 limit wrapped (-days 9223372036854775807: "empty
// trial period", exit 1) and just below the wrap the lockstep ran for ever;
// a -days past the end of every log asks for requests on idle machines, at
// a cost that grows with -days. Both are refused, naming the bound.
func TestDaysBounded(t *testing.T) {
	dir := t.TempDir()
	a := clitest.WriteTrace(t, dir, "a.swf", 1500, 16) // submissions up to day 10
	for _, c := range []struct {
		days string
		code int
		want string
	}{
		{"9223372036854775807", cli.ExitUsage, "at most 36500"},
		{"106751991167300", cli.ExitUsage, "at most 36500"},
		{"36500", cli.ExitUsage, "want -days 8 to 11"},
		{"12", cli.ExitUsage, "want -days 8 to 11"},
	} {
		var out, errs bytes.Buffer
		done := make(chan int, 1)
		go func() {
			done <- run(context.Background(), []string{"-trace", a + "," + a, "-days", c.days}, strings.NewReader(""), &out, &errs)
		}()
		select {
		case code := <-done:
			if code != c.code || !strings.Contains(errs.String(), c.want) {
				t.Errorf("-days %s: exit %d, %q; want %d naming %q", c.days, code, errs.String(), c.code, c.want)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("-days %s: still running after 20 s", c.days)
		}
	}
}

// The default -days (120) past the end of every log is cut to it, said
// on stderr: it was refused, naming a -days the user had not given. Logs
// that end within the 7-day warm-up run on day 8 alone, and the report
// says that every request met idle machines: every one executed, a
// P_achieved of 1.000 with no word.
func TestDaysShortLogs(t *testing.T) {
	dir := t.TempDir()
	a := clitest.WriteTrace(t, dir, "a.swf", 1500, 16)    // submissions up to day 10
	short := clitest.WriteTrace(t, dir, "b.swf", 600, 16) // up to day 4
	const idle = "degenerate: the last job of every log is submitted by day 5, within the 7-day warm-up"
	for _, c := range []struct {
		args          []string
		stderr, table string
	}{
		{[]string{"-trace", a + "," + a}, "requests on days 7–11, not to the default day 120", "requests on days 7–11 "},
		{[]string{"-trace", short + "," + short, "-days", "8"}, "", idle},
		{[]string{"-trace", short + "," + short, "-json"}, "requests on days 7–8, not to the default day 120", idle},
	} {
		var out, errs bytes.Buffer
		code := run(context.Background(), append(c.args, "-step", "600"), strings.NewReader(""), &out, &errs)
		if code != 0 || !strings.Contains(errs.String(), c.stderr) || !strings.Contains(out.String(), c.table) {
			t.Errorf("%q: exit %d, %q; want 0 saying %q, the report %q:\n%.2000s", c.args, code, errs.String(), c.stderr, c.table, out.String())
		}
	}
}

// An empty item in -trace is a usage error that names it: it was opened
// as the file "" ("open : no such file or directory", exit 1).
func TestTraceListEmptyItem(t *testing.T) {
	a := clitest.WriteTrace(t, t.TempDir(), "a.swf", 300, 16)
	for _, list := range []string{a + ",", "," + a, a + ",," + a} {
		var out, errs bytes.Buffer
		code := run(context.Background(), []string{"-trace", list, "-days", "9"}, strings.NewReader(""), &out, &errs)
		if code != cli.ExitUsage || !strings.Contains(errs.String(), "is empty") {
			t.Errorf("-trace %q: exit %d, %q; want 2 naming the empty item", list, code, errs.String())
		}
	}
}

// A machine smaller than a trial's reservations (Table 6.2 asks 48
// processors of every machine) was given a chance by its QBETS, which
// knows no machine size; the job submitted there was refused by the
// simulator, "agent: simulator rejected job … (48 processors, …) on a
// 16-processor machine", which ended the run after three trials. Such a
// site now answers 0: the trial runs, with no co-allocation executed.
func TestMachineSmallerThanTrial(t *testing.T) {
	dir := t.TempDir()
	a := clitest.WriteTrace(t, dir, "a.swf", 1500, 64)
	small := clitest.WriteTrace(t, dir, "small.swf", 1500, 16)
	var out bytes.Buffer
	opt := options{paths: []string{a, small}, days: 9, count: 2, step: 30, trials: table62}
	if err := reproduce(&out, opt); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "| 48, 1h, 12h | 0.75 | – |") {
		t.Errorf("trial 48 on a 16-processor machine: want no co-allocation executed:\n%s", out.String())
	}
	// and the report says why (it said only "executed no co-allocation")
	if !strings.Contains(out.String(), "trial (48, 1h, 12h): small.swf has 16 processors, fewer than its 48") {
		t.Errorf("report does not say the machine is smaller than N:\n%s", out.String())
	}
}

// -json names the machine smaller than a trial's N, beside its fields.
func TestMachineSmallerThanTrialJSON(t *testing.T) {
	dir := t.TempDir()
	a := clitest.WriteTrace(t, dir, "a.swf", 1500, 64)
	small := clitest.WriteTrace(t, dir, "small.swf", 1500, 16)
	var out, errs bytes.Buffer
	if err := command([]string{"-days", "9", "-count", "2", "-step", "30", "-json", "-trace", a + "," + small}, &out, &errs); err != nil {
		t.Fatal(err, errs.String())
	}
	var r struct {
		Sections []json.RawMessage `json:"sections"`
		Rejected map[string]int    `json:"rejected"`
		Smaller  []smallerJSON     `json:"smaller_than_trial"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	want := smallerJSON{Trial: "(48, 1h, 12h)", Machine: "small.swf", Size: 16, Nodes: 48}
	if len(r.Sections) == 0 || r.Rejected == nil || !slices.Contains(r.Smaller, want) {
		t.Errorf("-json: %d sections, rejected %v, smaller_than_trial %+v; want %+v among them", len(r.Sections), r.Rejected, r.Smaller, want)
	}
}

// A log that is malformed, or has no sane job, is an error naming it and,
// for the latter, why its jobs were left out: they were "swf: line 1,
// field 1 ..." without the file and "no sane jobs" without a reason.
func TestUnusableLogNamed(t *testing.T) {
	dir := t.TempDir()
	bad, none := filepath.Join(dir, "bad.swf"), filepath.Join(dir, "none.swf")
	if err := os.WriteFile(bad, []byte("x y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(none, []byte("; MaxProcs: 8\n1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A machine sched refuses (above 2^40 processors) is named with its
	// log: it was sched's "MachineSize 9223372036854775807 above 2^40".
	huge := filepath.Join(dir, "huge.swf")
	if err := os.WriteFile(huge, []byte("; MaxProcs: 9223372036854775807\n1 0 0 60 1 -1 -1 1 60 -1 1 1 1 1 1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{bad: bad + ": swf: line 1", none: none + ": no sane job (1 record: 1 no submit time)",
		huge: huge + ": machine size 9223372036854775807 above 2^40 processors"} {
		if _, err := loadMachine(path, false); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v, want %q", err, want)
		}
	}
	// A missing log is named once (it was "P: open P: no such file").
	missing := filepath.Join(dir, "no.swf")
	if _, err := loadMachine(missing, false); err == nil || strings.Count(err.Error(), missing) != 1 {
		t.Errorf("%v, want %s named once", err, missing)
	}
}
