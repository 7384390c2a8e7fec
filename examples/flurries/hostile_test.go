package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
	"github.com/batchq/batchq/internal/activity"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

// A log shorter than the flurry to inject is an error that says so and
// names the log and the shape, not flurrytest's "synthetic flurry window
// [-29453, +1814400], want ≥ 0".
func TestInjectIntoShortLog(t *testing.T) {
	var jobs []swf.Job
	for i := range 10 {
		jobs = append(jobs, swf.Job{ID: int64(i + 1), Submit: int64(1800 * i), Wait: 0, RunTime: 600, AllocProcs: 1,
			ReqProcs: 1, ReqTime: 900, Status: 1, User: 1, Group: 1, Executable: 1, Queue: 1, Partition: -1, PrecedingJob: -1, ThinkTime: -1,
			AvgCPUTime: -1, UsedMemory: -1, ReqMemory: -1})
	}
	_, err := injectLog("short", jobs, []shape{flurry375}, sanitize.FlurryConfig{})
	if err == nil || !strings.Contains(err.Error(), "short, 375 jobs/10 h: the log spans 0.2 days, less than the flurry's 0.4") {
		t.Errorf("got %v", err)
	}
}

// A log with no job, with no known submit time, or whose submit times span
// centuries (a corrupt 2^63 − 1) panicked in every experiment (index out
// of range, makeslice: len out of range): each is an error naming the log.
func TestDegenerateLogsRefused(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("; MaxProcs: 64\n"+body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	line := "%d %d 0 100 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1\n"
	write("empty.swf", "")
	write("unknown.swf", fmt.Sprintf(line, 1, -1))
	write("far.swf", fmt.Sprintf(line, 1, 0)+fmt.Sprintf(line, 2, int64(200*365*86400))) // within 2^40 s
	for name, want := range map[string]string{
		"empty.swf":   "empty.swf: no job lines", // (as every command's: it said "no job with a known submit time (0 jobs read)")
		"unknown.swf": "no job with a known submit time (1 jobs read)",
		"far.swf":     "more than 100 years",
	} {
		if _, err := load(dir, name, false, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error with %q", name, err, want)
		}
	}
}

// A job whose submit time is past 2^40 s (a corrupt 2^63 − 1000), which
// every simulator rejects as out of range, is left out of the log and
// noted with its reason once on standard error: it refused the whole log
// (its submissions spanned more than 100 years).
func TestFarSubmitLeftOut(t *testing.T) {
	dir := t.TempDir()
	line := "%d %d 0 100 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1\n"
	body := "; MaxProcs: 64\n" + fmt.Sprintf(line, 1, 0) + fmt.Sprintf(line, 2, int64(1<<63-1000)) + fmt.Sprintf(line, 3, 3600)
	if err := os.WriteFile(filepath.Join(dir, "far.swf"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	notes := &logNotes{}
	jobs, err := load(dir, "far.swf", false, notes)
	if err != nil || len(jobs) != 2 || jobs[0].ID != 1 || jobs[1].ID != 3 {
		t.Fatalf("%v, %d jobs; want jobs 1 and 3", err, len(jobs))
	}
	var b strings.Builder
	notes.write(&b)
	if want := "flurries: far.swf: jobs left out: 1 time out of range (a submit time past 2^40 s, which the simulators reject too)\n"; b.String() != want {
		t.Errorf("notes %q, want %q", b.String(), want)
	}
}

// The butterfly's log is read so too: its corrupt submit failed the
// filter's detection ("sanitize: flurry detection: submissions span ...",
// naming no log) after every simulation had run.
func TestFarSubmitLeftOutButterfly(t *testing.T) {
	dir := t.TempDir()
	line := "%d %d 0 100 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1\n"
	body := "; MaxProcs: 128\n" + fmt.Sprintf(line, 1, 0) + fmt.Sprintf(line, 2, int64(1<<63-1000)) + fmt.Sprintf(line, 3, 3600)
	if err := os.WriteFile(filepath.Join(dir, tracetest.SDSCSP2), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	notes := &logNotes{}
	jobs, _, err := readButterfly(dir, notes)
	if err != nil || len(jobs) != 2 || jobs[0].ID != 1 || jobs[1].ID != 3 {
		t.Fatalf("%v, %d jobs; want jobs 1 and 3", err, len(jobs))
	}
	var b strings.Builder
	notes.write(&b)
	if want := "jobs left out: 1 time out of range"; !strings.Contains(b.String(), want) {
		t.Errorf("notes %q, want %q", b.String(), want)
	}
}

// A log whose every job is left out (a submit past 2^40 s; not sane,
// with -sane) says so with the reasons, as every command says it: it was
// "no job lines", of a log that has some.
func TestAllLeftOutSaid(t *testing.T) {
	dir := t.TempDir()
	line := "%d %d 0 %d 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1\n"
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("; MaxProcs: 64\n"+body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("far.swf", fmt.Sprintf(line, 1, int64(1<<62), 100))
	write("unsane.swf", fmt.Sprintf(line, 1, int64(1<<62), 100)+fmt.Sprintf(line, 2, 0, -1))
	for _, c := range []struct {
		name string
		sane bool
		want string
	}{
		{"far.swf", false, "far.swf: no sane job (1 record: 1 time out of range)"},
		{"unsane.swf", true, "unsane.swf: no sane job (2 records: 1 no run time, 1 time out of range)"},
	} {
		if _, err := load(dir, c.name, c.sane, nil); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// tinyLogs writes the four cleaned logs' names in a directory, each of
// three sane jobs an hour apart (with MaxProcs 64), with extra's lines
// added to the logs it names; it returns the directory.
func tinyLogs(t *testing.T, extra map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	line := "%d %d 0 100 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1\n"
	for _, name := range cleaned {
		body := "; MaxProcs: 64\n" + fmt.Sprintf(line, 1, 0) + fmt.Sprintf(line, 2, 3600) + fmt.Sprintf(line, 3, 7200) + extra[name]
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// flurriesJSON runs flurries -json with args on dir and returns its
// logs' notes (nil: the key is absent) and standard error.
func flurriesJSON(t *testing.T, dir string, args ...string) (map[string]map[string]any, string) {
	t.Helper()
	var out, errs bytes.Buffer
	if code := run(context.Background(), append(args, "-json", "-traces", dir), nil, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	var got struct {
		Sections []any                     `json:"sections"`
		Logs     map[string]map[string]any `json:"logs"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || len(got.Sections) == 0 {
		t.Fatalf("%v, %d sections: %s", err, len(got.Sections), out.String())
	}
	return got.Logs, errs.String()
}

// -json says the jobs left out for a submit time past 2^40 s beside the
// tables, under logs.NAME.rejected, in the reason's key: they were said on
// standard error only, and a script reading the tables could not tell.
// Without a note the key is absent, so that -json on a clean log is as it
// was.
func TestFarSubmitInJSON(t *testing.T) {
	far := fmt.Sprintf("4 %d 0 100 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1\n", int64(1<<63-1000))
	logs, errs := flurriesJSON(t, tinyLogs(t, map[string]string{tracetest.KTH: far}), "-exp", "native")
	want := map[string]map[string]any{tracetest.KTH: {"rejected": map[string]any{"time_out_of_range": 1.0}}}
	if !reflect.DeepEqual(logs, want) {
		t.Errorf("logs %v, want %v", logs, want)
	}
	if !strings.Contains(errs, tracetest.KTH+": jobs left out: 1 time out of range") {
		t.Errorf("standard error %q lacks the note", errs)
	}
	if logs, _ := flurriesJSON(t, tinyLogs(t, nil), "-exp", "native"); logs != nil {
		t.Errorf("clean logs: logs %v, want the key absent", logs)
	}
}

// -sane counts the jobs sanitize.Sane leaves out, by reason, on standard
// error and under logs.NAME.not_sane_by_reason in -json: it dropped
// Sane's report, and the tables' job counts were smaller without a word.
// Without -sane the same log has no note.
func TestSaneLeftOutCounted(t *testing.T) {
	bad := "4 10800 0 -1 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1\n" + // no run time
		"5 14400 0 100 128 -1 -1 128 200 -1 1 1 1 1 1 1 -1 -1\n" // larger than the 64 processors
	dir := tinyLogs(t, map[string]string{tracetest.KTH: bad})
	logs, errs := flurriesJSON(t, dir, "-exp", "native", "-sane")
	want := map[string]map[string]any{tracetest.KTH: {"not_sane_by_reason": map[string]any{"no_run_time": 1.0, "larger_than_machine": 1.0}}}
	if !reflect.DeepEqual(logs, want) {
		t.Errorf("logs %v, want %v", logs, want)
	}
	if w := tracetest.KTH + ": -sane: jobs left out as not sane: 1 larger than machine, 1 no run time\n"; !strings.Contains(errs, w) {
		t.Errorf("standard error %q, want %q", errs, w)
	}
	if logs, errs := flurriesJSON(t, dir, "-exp", "native"); logs != nil || errs != "" {
		t.Errorf("without -sane: logs %v, standard error %q; want none", logs, errs)
	}
}

// A log whose submissions are all at one instant spans 0 years: its rate
// per year is "–", not NaN.
func TestRateOfAnInstant(t *testing.T) {
	var b strings.Builder
	writeNative(&b, []nativeLog{{name: "one", jobs: []swf.Job{{Submit: 5}}, years: 0}})
	if s := b.String(); strings.Contains(s, "NaN") || !strings.Contains(s, "(– per year)") {
		t.Errorf("got %q", s)
	}
}

// Submissions activity.Totals refuses (more than 2^22 weeks; load's 100
// years keep them out of the command) are an error naming the log in every
// use of the weekly totals: the error was dropped, which left no week and
// panicked (slices.MaxFunc: empty list; index out of range).
func TestWeekTotalsRefused(t *testing.T) {
	jobs := []swf.Job{{ID: 1, Submit: 0, User: 1}, {ID: 2, Submit: (1 << 22) * activity.Week, User: 1}}
	l := nativeLog{name: "far", jobs: jobs}
	check := func(what string, f func() error) {
		t.Helper()
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("%s panicked: %v", what, r)
			}
		}()
		if err := f(); err == nil || !strings.HasPrefix(err.Error(), "far: activity: submissions span") {
			t.Errorf("%s: %v, want the log's name and Totals's error", what, err)
		}
	}
	check("busiestWeeks", func() error { _, _, err := busiestWeeks("far", jobs); return err })
	check("summarize", func() error { _, err := summarize(l); return err })
	check("medianWeek", func() error { _, _, err := medianWeek("far", jobs); return err })
	check("weekScale", func() error { _, _, _, _, err := weekScale("far", jobs, flurry375.spec(0, 0)); return err })
}

// A malformed log is an error naming it: it was "swf: line 1, field 1
// (job number): ..." without the file. A missing one is named once (it
// was "no.swf: open DIR/no.swf: ...").
func TestMalformedLogNamed(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.swf")
	if err := os.WriteFile(bad, []byte("x y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := load(dir, "bad.swf", false, nil); err == nil || !strings.HasPrefix(err.Error(), bad+": swf: line 1") {
		t.Errorf("%v, want an error naming %s", err, bad)
	}
	if _, err := load(dir, "no.swf", false, nil); err == nil || strings.Count(err.Error(), "no.swf") != 1 {
		t.Errorf("%v, want no.swf named once", err)
	}
}

// -plot - is a usage error, as for the other commands' figure
// directories: it made a directory named "-" in the working directory.
func TestPlotDash(t *testing.T) {
	t.Chdir(t.TempDir())
	var out, errs bytes.Buffer
	if code := run(context.Background(), []string{"-plot", "-", "-exp", "none", "-traces", t.TempDir()}, nil, &out, &errs); code != 2 || !strings.Contains(errs.String(), "-plot -: ") {
		t.Errorf("exit %d, %q; want a usage error naming -plot -", code, errs.String())
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error(`a directory named "-" was made`)
	}
}

// A log without a flurry candidate (a few jobs here) says "none" where
// the candidates are listed: it said "0 candidates: ." in the LANL
// section and the figures' table.
func TestNoCandidatesSaid(t *testing.T) {
	jobs := []swf.Job{{ID: 1, Submit: 0, RunTime: 10, AllocProcs: 1, ReqProcs: 1, User: 3}, {ID: 2, Submit: 600, RunTime: 10, AllocProcs: 1, ReqProcs: 1, User: 3}}
	got, err := summarize(nativeLog{name: "few", jobs: jobs})
	if err != nil {
		t.Fatal(err)
	}
	if got != "none" {
		t.Errorf("summarize of no candidate: %q, want none", got)
	}
}

// A butterfly log whose every job has a submit time past 2^40 s, or whose
// job 64241 (the one it shortens) has, says so: it said "job 64241 not in
// the log" after the first simulation.
func TestButterflyKeyLeftOutSaid(t *testing.T) {
	line := "%d %d 0 100 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1\n"
	for _, c := range []struct {
		body, want string
	}{
		{fmt.Sprintf(line, 1, int64(1<<62)) + fmt.Sprintf(line, 64241, int64(1<<62)),
			tracetest.SDSCSP2 + ": no sane job (2 records: 2 time out of range)"},
		{fmt.Sprintf(line, 1, 0) + fmt.Sprintf(line, 64241, int64(1<<62)),
			tracetest.SDSCSP2 + ": job 64241, the one the butterfly shortens, was left out: its submit time is past 2^40 s (time out of range: 1 of the log's 2 jobs)"},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, tracetest.SDSCSP2), []byte("; MaxProcs: 128\n"+c.body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := runButterfly(context.Background(), dir, &logNotes{}); err == nil || err.Error() != c.want {
			t.Errorf("%v, want %q", err, c.want)
		}
	}
}

// A butterfly log without the job it shortens (another log under the
// SDSC-SP2 name, or a part of it) says so, naming the log and what the
// experiment needs, before any simulation: it said "job 64241 not in the
// log" after the first. Checked: fails without the check in runButterfly.
func TestButterflyKeyMissingSaid(t *testing.T) {
	dir := t.TempDir()
	clitest.WriteTrace(t, dir, tracetest.SDSCSP2, 60, 64)
	want := tracetest.SDSCSP2 + ": no job 64241, the one the butterfly shortens: the experiment runs on the cleaned SDSC-SP2 log (60 jobs kept here); give -traces the directory that holds it"
	if _, err := runButterfly(context.Background(), dir, &logNotes{}); err == nil || err.Error() != want {
		t.Errorf("%v, want %q", err, want)
	}
	if r := clitest.Exec(run, "", "-exp", "butterfly", "-traces", dir); r.Code != 1 || !strings.Contains(r.Stderr, want) {
		t.Errorf("-exp butterfly: exit %d, %q", r.Code, r.Stderr)
	}
}

// A median bin of no job or no process (a log of jobs of size 0, or one
// whose 6-hour bins are mostly empty) makes the spread's ratio "–", said
// under the table: it printed NaN (0/0) or +Inf.
func TestSpreadOfEmptyMedian(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("; MaxProcs: 64\n")
	for i := range 40 { // a job every 5 days, size 0
		fmt.Fprintf(&b, "%d %d 0 100 0 -1 -1 0 200 -1 1 1 1 1 1 1 -1 -1\n", i+1, i*5*86400)
	}
	for _, name := range cleaned {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	secs, err := spreadSections(dir, setup{})
	if err != nil {
		t.Fatal(err)
	}
	s := secs[0].text
	if strings.Contains(s, "NaN") || strings.Contains(s, "Inf") || !strings.Contains(s, "| – / – |") ||
		!strings.Contains(s, "the median bin has no job") {
		t.Errorf("got\n%s", s)
	}
}

// The native counts leave out the jobs of unknown submit time (-1), as
// the detector and the weekly activity figure do, and count them in the
// figure's words; they were counted among the log's jobs ("4 jobs") and
// the years ran from -1 (54.76 years from 1970 to a day of 2024, not 0.00).
func TestNativeLeavesOutUnknownSubmit(t *testing.T) {
	dir := t.TempDir()
	line := "%d %d 0 100 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1\n"
	day := int64(20000 * 86400) // 2024
	body := "; MaxProcs: 64\n" + fmt.Sprintf(line, 1, -1) + fmt.Sprintf(line, 2, day) + fmt.Sprintf(line, 3, day+3600) + fmt.Sprintf(line, 4, day+7200)
	if err := os.WriteFile(filepath.Join(dir, "unknown.swf"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	ns, err := detectNative(dir, []string{"unknown.swf"}, setup{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	writeNative(&b, ns)
	if want := "unknown: 3 jobs, 0.00 years, 0 candidates (0.0 per year); jobs left out: 1 no submit time (-1)\n"; b.String() != want {
		t.Errorf("native: %q, want %q", b.String(), want)
	}
}

// TestTraceDirNamed: a -traces that is missing or a file is named as the
// trace directory (it was "open DIR/CTC-SP2-…: not a directory").
func TestTraceDirNamed(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ dir, want string }{
		{filepath.Join(t.TempDir(), "nope"), "flurries: trace directory: stat "},
		{file, "flurries: trace directory " + file + ": not a directory"},
	} {
		var out, errs bytes.Buffer
		code := run(t.Context(), []string{"-traces", c.dir}, strings.NewReader(""), &out, &errs)
		if code != 1 || !strings.HasPrefix(errs.String(), c.want) || strings.Contains(errs.String(), ".swf") {
			t.Errorf("-traces %s: exit %d, %q; want 1 and %q", c.dir, code, errs.String(), c.want)
		}
	}
}
