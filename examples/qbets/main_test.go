package main

import (
	"bufio"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
	"github.com/batchq/batchq/swf"
)

// writeLog writes a small hand-made SWF log: two queues, 444 and 256 jobs,
// one a minute, waits cycling through 0–290 s in queue 1 and 600–1500 s in
// queue 2.
func writeLog(t *testing.T, dir, name string) string {
	t.Helper()
	var jobs []swf.Job
	for i := range 700 {
		q, wait := int64(1), int64(10*(i%30))
		if i%7 < 3 && i >= 100 {
			q, wait = 2, int64(600+100*(i%10))
		}
		jobs = append(jobs, swf.Job{ID: int64(i + 1), Submit: int64(60 * i), Wait: wait, RunTime: 300, AllocProcs: 1 + int64(i%8),
			AvgCPUTime: -1, UsedMemory: -1, ReqProcs: -1, ReqTime: 3600, ReqMemory: -1, Status: 1, User: 1, Group: 1,
			Executable: -1, Queue: q, Partition: -1, PrecedingJob: -1, ThinkTime: -1})
	}
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := swf.WriteAll(f, &swf.Header{Queue: []string{"1 short", "2 long"}}, jobs); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestScoreJSON(t *testing.T) {
	dir := t.TempDir()
	path := writeLog(t, dir, "small.swf")
	// Flags after the argument, too.
	var out, errb strings.Builder
	if code := command([]string{path, "-json", "-q", "0.9"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	var rows []map[string]any
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		rows = append(rows, m)
	}
	if len(rows) != 2 {
		t.Fatalf("%d JSON lines, want one per queue (2):\n%s", len(rows), out.String())
	}
	for i, r := range rows {
		for _, k := range []string{"queue", "jobs", "scored", "answered", "answered_share", "correct", "correct_share", "median_bound_s", "median_ratio"} {
			if _, ok := r[k]; !ok {
				t.Errorf("row %d lacks %q: %v", i, k, r)
			}
		}
		for _, k := range []string{"answered_share", "correct_share"} {
			if v, _ := r[k].(float64); v < 0 || v > 1 {
				t.Errorf("row %d: %s = %v, want a share in [0, 1]", i, k, r[k])
			}
		}
		// The counts are counts, beside jobs and scored (answered was
		// the share), and their shares are theirs.
		scored, answered, correct := r["scored"].(float64), r["answered"].(float64), r["correct"].(float64)
		if answered < 1 || answered > scored || correct > answered || answered != math.Trunc(answered) ||
			r["answered_share"] != answered/scored || r["correct_share"] != correct/answered {
			t.Errorf("row %d: scored %v, answered %v (%v), correct %v (%v); want counts and their shares",
				i, scored, answered, r["answered_share"], correct, r["correct_share"])
		}
		if r["q"] != 0.9 {
			t.Errorf("row %d: q = %v, want 0.9", i, r["q"])
		}
	}
	if rows[0]["queue"] != 1.0 || rows[0]["jobs"] != 444.0 || rows[1]["queue"] != 2.0 || rows[1]["jobs"] != 256.0 {
		t.Errorf("queues/jobs: %v %v / %v %v", rows[0]["queue"], rows[0]["jobs"], rows[1]["queue"], rows[1]["jobs"])
	}
	// Queue 1's waits cycle through 0–290 s: once 22 are seen (q = 0.9)
	// every bound is at least the 0.9 quantile, and the bounds hold.
	if c := rows[0]["correct_share"].(float64); c < 0.9 {
		t.Errorf("queue 1 correct %v < 0.9", c)
	}
}

func TestScoreTableAndBadFile(t *testing.T) {
	dir := t.TempDir()
	good := writeLog(t, dir, "good.swf")
	bad := filepath.Join(dir, "bad.swf")
	if err := os.WriteFile(bad, []byte("1 2 3\nnot a number\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb strings.Builder
	code := command([]string{"-trace", bad, "-trace", good}, &out, &errb)
	if code == 0 {
		t.Error("exit 0 with a bad file")
	}
	if !strings.Contains(errb.String(), "bad.swf") {
		t.Errorf("stderr does not name the bad file: %q", errb.String())
	}
	// once: a user saw "qbets: F: F: swf: line 1 …"
	if n := strings.Count(errb.String(), bad); n != 1 {
		t.Errorf("stderr names the bad file %d times: %q", n, errb.String())
	}
	// A log read but not scored (no wait known) is named once too: that
	// error is scoreJobs', which names no file.
	nowait := filepath.Join(dir, "nowait.swf")
	if err := os.WriteFile(nowait, []byte("; MaxProcs: 4\n1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var errn strings.Builder
	if code := command([]string{"-trace", nowait}, io.Discard, &errn); code == 0 || strings.Count(errn.String(), nowait+": no job with a known wait") != 1 {
		t.Errorf("exit %d, stderr %q; want the log named once", code, errn.String())
	}
	// An empty log says so, as every command's does (it said "no job
	// with a known wait (0 jobs)").
	empty := filepath.Join(dir, "empty.swf")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	errn.Reset()
	if code := command([]string{"-trace", empty}, io.Discard, &errn); code == 0 || strings.Count(errn.String(), empty+": no job lines") != 1 {
		t.Errorf("exit %d, stderr %q; want the empty log named once, with no job lines", code, errn.String())
	}
	for _, want := range []string{"good: full QBETS, q = 0.95, C = 0.95", "| 1 short | 444 |", "| 2 long | 256 |"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the good file's table lacks %q:\n%s", want, out.String())
		}
	}
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	good := writeLog(t, dir, "good.swf")
	empty := t.TempDir()
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"missing file", []string{"-trace", filepath.Join(dir, "nope.swf")}, "nope.swf"},
		{"missing directory", []string{"-traces", filepath.Join(dir, "nope")}, "trace directory"},
		{"no logs in directory", []string{"-traces", empty}, "no SWF logs"},
		{"file as directory", []string{"-traces", good}, "good.swf: not a directory"},
		{"quantile out of range", []string{"-q", "1.5", good}, "-q 1.5"},
		{"confidence out of range", []string{good, "-c", "0"}, "-c 0"},
		{"unknown flag", []string{"-bogus"}, "bogus"},
	} {
		var out, errb strings.Builder
		if code := command(c.args, &out, &errb); code == 0 {
			t.Errorf("%s: exit 0", c.name)
		}
		if !strings.Contains(errb.String(), c.want) {
			t.Errorf("%s: stderr %q lacks %q", c.name, errb.String(), c.want)
		}
	}
}

func TestCLI(t *testing.T) {
	dir := t.TempDir()
	path := writeLog(t, dir, "small.swf")
	missing := filepath.Join(dir, "nope.swf")
	clitest.Run(t, clitest.Command{Run: run, JSON: []string{path, "-json"}, FromStdin: []string{"-", "-json"}, StdinFile: path,
		Missing: []string{missing}, File: missing})
	// The tables' -json: a directory of one small log.
	r := clitest.Exec(run, "", "-traces", dir, "-min", "1", "-json")
	if r.Code != 0 {
		t.Fatalf("tables -json: exit %d: %s", r.Code, r.Stderr)
	}
	if err := clitest.CheckJSON(r.Stdout); err != nil {
		t.Errorf("tables -json: %v in %.300q", err, r.Stdout)
	}
}

// TestProgress: the tables with -progress draw the bar on stderr (a short
// run's too, with the quiet second set to 0) and leave stdout byte for byte
// as without it.
func TestProgress(t *testing.T) {
	dir := t.TempDir()
	writeLog(t, dir, "small.swf")
	args := []string{"-traces", dir, "-min", "1"}
	clitest.Progress(t, run, args...)
}
