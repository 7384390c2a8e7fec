package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/qbets"
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
		{"-plot-days", "9223372036854775807", "-plot", dir}, // wrapped: a panic
		{"-plot", "-"},                                      // made a directory named "-"
	} {
		var out, errs strings.Builder
		if code := command(args, &out, &errs); code != 2 || !strings.Contains(errs.String(), "-plot") {
			t.Errorf("%q: exit %d, %q; want 2 naming -plot", args, code, errs.String())
		}
	}
}

// writeFarLog writes dir/far.swf, 302 jobs on one queue (far/1), and
// returns its path: job 301's wait is 2^63 − 1 (a corrupt line, out of
// range), the other 301 are scored.
func writeFarLog(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("; MaxProcs: 64\n")
	for i := range 300 {
		fmt.Fprintf(&b, "%d %d %d 100 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1\n", i+1, 60*i, 30*(i%20))
	}
	b.WriteString("301 18000 9223372036854775807 100 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1\n")
	b.WriteString("302 18060 5 100 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1\n")
	path := filepath.Join(dir, "far.swf")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A job whose wait is near the int64 limit (a corrupt line) made submit +
// wait wrap: the whole log failed with "Start -9223372036854771809 is
// before Submit". It is left out and counted under simulate's and
// forecast's key (rejected.time_out_of_range; it was out_of_range_jobs);
// the other jobs are scored.
func TestWaitAtInt64Limit(t *testing.T) {
	path := writeFarLog(t, t.TempDir())
	var out, errs strings.Builder
	if code := command([]string{"-json", path}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	var got queueScore
	if err := json.Unmarshal([]byte(out.String()), &got); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if got.Jobs != 301 || len(got.Rejected) != 1 || got.Rejected["time_out_of_range"] != 1 {
		t.Errorf("jobs %d, rejected %v; want 301 and time_out_of_range 1 (simulate's key)", got.Jobs, got.Rejected)
	}
	out.Reset()
	if code := command([]string{path}, &out, &errs); code != 0 || !strings.Contains(out.String(), "(skipped: 1 time out of range)") {
		t.Errorf("exit %d, text report without the count:\n%s", code, out.String())
	}
}

// The tables' path (-traces) leaves the out-of-range job out too, says so
// on the log, and replays the other 301: the wait of 2^63−1 made the whole
// log fail ("Start … is before Submit").
func TestTablesOutOfRange(t *testing.T) {
	dir := t.TempDir()
	writeFarLog(t, dir)
	var out, log strings.Builder
	if err := tables(&out, &log, false, dir, 10, qbets.ClusterFixedProcs); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if !strings.Contains(log.String(), "far.swf: jobs left out: 1 time out of range") {
		t.Errorf("log without the count:\n%s", log.String())
	}
	if n := strings.Count(out.String(), "| far/1 | 301 |"); n != 2 {
		t.Errorf("%d rows of far/1 with 301 jobs, want 2 (Tables 4.1 and 4.2):\n%s", n, out.String())
	}
}

// The jobs the tables leave out are counted in the report itself (and so
// in -json's text), not only on the log (stderr), which a script reading
// -json never saw.
func TestTablesLeftOutInReport(t *testing.T) {
	dir := t.TempDir()
	writeFarLog(t, dir)
	var out, log strings.Builder
	if err := tables(&out, &log, false, dir, 10, qbets.ClusterFixedProcs); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if want := "Jobs left out: far 1 time out of range."; !strings.Contains(out.String(), want) {
		t.Errorf("report lacks %q:\n%s", want, out.String())
	}
}

// A log with some waits unknown (SDSC-Par's 805 of 32,135, OSC-Clust's 1)
// had those jobs left out of the tables without a word: only a log
// without any wait was named. They are counted per log, in the report
// and on the log.
func TestTablesSomeWaitsUnknown(t *testing.T) {
	dir := t.TempDir()
	writeSomeWaitsUnknown(t, dir)
	var out, log strings.Builder
	if err := tables(&out, &log, false, dir, 10, qbets.ClusterFixedProcs); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if want := "Jobs without a known wait or submit time left out: some 3."; !strings.Contains(out.String(), want) {
		t.Errorf("report lacks %q:\n%s", want, out.String())
	}
	if want := "some.swf: 3 jobs without a known wait or submit time left out"; !strings.Contains(log.String(), want) {
		t.Errorf("log lacks %q:\n%s", want, log.String())
	}
	if n := strings.Count(out.String(), "| some/1 | 297 |"); n != 2 {
		t.Errorf("%d rows of some/1 with 297 jobs, want 2:\n%s", n, out.String())
	}
}

// A queue's name from the header ("; Queue: 1 NAME") is printed quoted
// when it is not printable, as swfstat prints it: "\x1b[31m" went to the
// terminal raw.
func TestQueueNamePrintable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "esc.swf")
	log := "; MaxProcs: 64\n; Queue: 1 \x1b]0;PWNED\a\n" +
		"1 0 10 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n"
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	command([]string{path}, &out, &errs)
	if strings.ContainsAny(out.String()+errs.String(), "\x1b\a") || !strings.Contains(out.String(), `"\x1b]0;PWNED\a"`) {
		t.Errorf("%q", out.String()+errs.String())
	}
}

// A queue where QBETS gave no bound (too short a history) has no share of
// bounds held and no RMS: -json gives null and the table "–", as for its
// median bound; they were 0 ("correct 0.0%": every bound failed).
func TestScoreNoBoundNull(t *testing.T) {
	path := filepath.Join(t.TempDir(), "short.swf")
	log := "; MaxProcs: 64\n1 0 10 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n2 5 0 50 8 -1 -1 8 100 -1 1 2 1 1 1 -1 -1 -1\n"
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := command([]string{path, "-json"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	var m map[string]any
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	if m["correct_share"] != nil || m["rms_over_s"] != nil || m["answered"] != float64(0) || m["correct"] != float64(0) {
		t.Errorf("%s; want correct_share and rms_over_s null, answered and correct 0", out.String())
	}
	out.Reset()
	command([]string{path}, &out, &errs)
	if !strings.Contains(out.String(), "| 1 | 2 | 0.0% | – | – | – |") {
		t.Errorf("table:\n%s", out.String())
	}
}

// A queue where QBETS gave bounds and none held has no RMS either: it is
// over the bounds that held, and 0 read as exact bounds beside "correct":
// 0. Waits that grow with every job beat every bound.
func TestScoreNoBoundHeldNullRMS(t *testing.T) {
	var log strings.Builder
	log.WriteString("; MaxProcs: 64\n")
	for i := range 600 {
		fmt.Fprintf(&log, "%d %d %d 50 1 -1 -1 1 100 -1 1 1 1 1 1 -1 -1 -1\n", i+1, 10*i, 20*(i+1))
	}
	path := filepath.Join(t.TempDir(), "growing.swf")
	if err := os.WriteFile(path, []byte(log.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := command([]string{path, "-json"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	var m map[string]any
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	if a, _ := m["answered"].(float64); a == 0 || m["correct"] != float64(0) || m["correct_share"] != float64(0) || m["rms_over_s"] != nil {
		t.Errorf("%s; want bounds answered, correct 0 and rms_over_s null", out.String())
	}
}

// In the tables' directory, a log without job lines (an empty file, a
// header only) is one that could not be read, named as such, and a
// malformed log's file is named once: the empty one was listed among
// "Traces without waits", and the other said "qbets: F: F: swf: ...".
func TestTablesEmptyAndBadLogs(t *testing.T) {
	dir := t.TempDir()
	writeFarLog(t, dir)
	for name, text := range map[string]string{"empty.swf": "", "header.swf": "; MaxProcs: 8\n", "bad.swf": "; MaxProcs: 8\n1 2 3\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, log strings.Builder
	err := tables(&out, &log, false, dir, 10, qbets.ClusterFixedProcs)
	if err == nil || err.Error() != "3 of 4 logs could not be read" {
		t.Errorf("error %v, want 3 of 4 logs could not be read", err)
	}
	for _, want := range []string{"empty.swf: no job lines (left out of the tables)", "header.swf: no job lines (left out of the tables)"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
	bad := filepath.Join(dir, "bad.swf")
	if n := strings.Count(log.String(), bad); n != 1 {
		t.Errorf("bad.swf named %d times, want once:\n%s", n, log.String())
	}
	if strings.Contains(out.String(), "without waits: empty") || strings.Contains(out.String(), "header") {
		t.Errorf("report lists the logs without jobs as without waits:\n%s", out.String())
	}
}

// A queue in which no job waited gets a bound of 0 s that holds for every
// job, "100.0% correct": the text says the row is degenerate and -json's
// waited is 0; a queue with waits has no such note.
func TestScoreNoWaitDegenerate(t *testing.T) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 64\n")
	for i := 1; i <= 200; i++ {
		q := 1 + i%2 // queue 1 never waits, queue 2 waits i s
		fmt.Fprintf(&b, "%d %d %d 100 4 -1 -1 4 200 -1 1 1 1 1 %d -1 -1 -1\n", i, 10*i, (q-1)*i, q)
	}
	path := filepath.Join(t.TempDir(), "quiet.swf")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := command([]string{path}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if !strings.Contains(out.String(), "degenerate: no job of queue 1 waited at all") || strings.Contains(out.String(), "queue 1, 2") {
		t.Errorf("want queue 1 alone said degenerate:\n%s", out.String())
	}
	out.Reset()
	if code := command([]string{path, "-json"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m struct {
			Queue  int64
			Waited *int
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		if m.Waited == nil || (*m.Waited == 0) != (m.Queue == 1) {
			t.Errorf("%s: want waited 0 in queue 1 alone", l)
		}
	}
}

// A queue in which no job waited but no job got a bound either (a
// history too short: its row's "–") is not said degenerate: the note's
// "a bound of 0 s holds for every one" would be false there. (It was on
// a slice of LANL-CM5, whose queue -1 has 5 jobs.)
func TestScoreNoBoundNotDegenerate(t *testing.T) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 64\n")
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&b, "%d %d 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n", i, 10*i)
	}
	for i := 201; i <= 205; i++ { // queue 2: 5 jobs, never waiting
		fmt.Fprintf(&b, "%d %d 0 100 4 -1 -1 4 200 -1 1 1 1 1 2 -1 -1 -1\n", i, 10*i)
	}
	path := filepath.Join(t.TempDir(), "short.swf")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := command([]string{path}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if !strings.Contains(out.String(), "| 2 | 5 | 0.0% | – |") {
		t.Fatalf("want queue 2 without a bound (the case tested):\n%s", out.String())
	}
	if !strings.Contains(out.String(), "degenerate: no job of queue 1 waited at all,") {
		t.Errorf("want queue 1 alone said degenerate:\n%s", out.String())
	}
}

// writeSomeWaitsUnknown writes dir/some.swf: 300 jobs on queue 1, of
// which 3 (jobs 8, 108, 208) have no logged wait.
func writeSomeWaitsUnknown(t *testing.T, dir string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("; MaxProcs: 64\n")
	for i := range 300 {
		wait := 30 * (i % 20)
		if i%100 == 7 {
			wait = -1
		}
		fmt.Fprintf(&b, "%d %d %d 100 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1\n", i+1, 60*i, wait)
	}
	if err := os.WriteFile(filepath.Join(dir, "some.swf"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A queue too short for QBETS to answer (12 jobs, under the history a
// 0.95 bound needs) has no correctness: "–" in the tables and in the list
// of queues below 0.95, not 0.000, bounds that never held.
func TestTablesNoBoundNoCorrectness(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("; MaxProcs: 64\n")
	for i := range 12 {
		fmt.Fprintf(&b, "%d %d %d 100 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1\n", i+1, 60*i, 30*(i%5))
	}
	if err := os.WriteFile(filepath.Join(dir, "few.swf"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, log strings.Builder
	if err := tables(&out, &log, false, dir, 10, qbets.ClusterFixedProcs); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if strings.Contains(out.String(), "0.000") || !strings.Contains(out.String(), "| few/1 | 12 | – | – | – | – |") ||
		!strings.Contains(out.String(), "- few/1: – (") {
		t.Errorf("a queue without a bound scored:\n%s", out.String())
	}
}

// A log whose jobs were all submitted at one instant (LLNL-Atlas's and
// SDSC-Par's first 300 jobs at 0) has every prediction made before any
// later wait is known: 270 of 300 refused for no history, with no word
// of why. The text says the row is degenerate, -json's one_instant is
// true; a queue with a submit span has neither.
func TestScoreOneInstantDegenerate(t *testing.T) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 64\n")
	for i := 1; i <= 300; i++ {
		q := 1 + i%2 // queue 1 at one instant, queue 2 a second apart
		fmt.Fprintf(&b, "%d %d %d 100 4 -1 -1 4 200 -1 1 1 1 1 %d -1 -1 -1\n", i, (q-1)*i, 7*i, q)
	}
	path := filepath.Join(t.TempDir(), "once.swf")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := command([]string{path}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if !strings.Contains(out.String(), "degenerate: every job of queue 1 submitted at one instant,") || strings.Contains(out.String(), "queue 1, 2") {
		t.Errorf("want queue 1 alone said submitted at one instant:\n%s", out.String())
	}
	out.Reset()
	if code := command([]string{path, "-json"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m struct {
			Queue      int64
			OneInstant bool `json:"one_instant"`
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		if m.OneInstant != (m.Queue == 1) {
			t.Errorf("%s: want one_instant in queue 1 alone", l)
		}
	}
}

// A -q and -c whose minimum history is beyond any queue's (q = 1−2^−53)
// is a usage error naming both flags: it was exit 1 in the library's
// words ("qbets: q = 0.9999999999999999, C = 0.95
// need a history above 4194304 jobs"), naming no flag.
func TestLevelBeyondAnyHistory(t *testing.T) {
	for _, args := range [][]string{
		{"-q", "0.9999999999999999", "no-such.swf"},
		{"-c", "0.9999999999999999", "-q", "0.9999999", "no-such.swf"},
	} {
		var out, errs strings.Builder
		if code := command(args, &out, &errs); code != 2 || !strings.Contains(errs.String(), "-q ") || !strings.Contains(errs.String(), "-c ") || !strings.Contains(errs.String(), "need a history above") {
			t.Errorf("%q: exit %d, %q; want 2 naming -q and -c", args, code, errs.String())
		}
	}
}

// A flag of the other mode is a usage error naming it: each was dropped
// without a word (exit 0). -q and -c score logs; -min, -cluster,
// -tables, -plot-queues and -plot-days are the tables' and the
// figure's, the last two -plot's; -tables=false without -plot printed
// nothing.
func TestFlagsOfOtherModeRefused(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"-min", "5", "some.swf"}, {"-cluster", "two-level", "some.swf"}, {"-tables=false", "some.swf"},
		{"-plot-days", "5", "some.swf"}, {"-plot-queues", "KTH/1", "-trace", "some.swf"},
		{"-q", "0.9", "-traces", dir}, {"-c", "0.9"},
		{"-plot-queues", "KTH/1", "-traces", dir}, {"-plot-days", "5"},
		{"-tables=false"},
	} {
		var out, errs strings.Builder
		flagName, _, _ := strings.Cut(args[0], "=")
		if code := command(args, &out, &errs); code != 2 || !strings.Contains(errs.String(), flagName) {
			t.Errorf("%q: exit %d, %q; want 2 naming %s", args, code, errs.String(), flagName)
		}
	}
}

// A log given twice (by its name again, another spelling of it, or -trace
// and an argument) was scored twice, its rows printed twice as if two
// logs agreed; it is a usage error.
func TestLogGivenTwice(t *testing.T) {
	dir := t.TempDir()
	path := writeLog(t, dir, "small.swf")
	for _, args := range [][]string{
		{path, path},
		{path, filepath.Join(dir, ".", "small.swf")},
		{"-trace", path, path},
	} {
		var out, errb strings.Builder
		if code := command(args, &out, &errb); code != 2 || out.Len() != 0 || !strings.Contains(errb.String(), "small.swf") {
			t.Errorf("%q: exit %d, %d bytes out, %q; want 2 naming the log, nothing scored", args, code, out.Len(), errb.String())
		}
	}
}
