package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// rewrite writes the jobs of the log at path, changed by edit (which may
// add lines: it returns the jobs to write), to a new file in dir.
func rewrite(t *testing.T, path, dir, name string, edit func([]swf.Job) []swf.Job) string {
	t.Helper()
	h, jobs, err := swf.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if h.MaxProcs <= 0 { // (a second MaxProcs line is a header warning the output says)
		if _, err := f.WriteString("; MaxProcs: 64\n"); err != nil {
			t.Fatal(err)
		}
	}
	if err := swf.WriteAll(f, h, edit(jobs)); err != nil {
		t.Fatal(err)
	}
	return f.Name()
}

// jsonRows runs the command with -json and returns its rows by predictor.
func jsonRows(t *testing.T, args ...string) map[string]map[string]any {
	t.Helper()
	code, out, errs := runCmd(t, append(args, "-json")...)
	if code != 0 {
		t.Fatalf("%q: exit %d: %s", args, code, errs)
	}
	rows := map[string]map[string]any{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		rows[m["predictor"].(string)] = m
	}
	return rows
}

// A log whose job numbers repeat (a scheduler's ID wrap, logs
// concatenated) is read: every later copy of a number is rejected and
// counted, and the scores are those of the log without them. The
// predictors key their state by job number: fed the copies, IBL stopped
// the run ("submitted twice") and the others mixed up two jobs silently.
func TestDuplicateIDs(t *testing.T) {
	dir := t.TempDir()
	path := smallLog(t, dir, 400)
	var dups int
	dup := rewrite(t, path, dir, "dup.swf", func(js []swf.Job) []swf.Job {
		var out []swf.Job
		for i, j := range js {
			out = append(out, j)
			if i%10 == 5 { // a second job under the same number, later
				c := j
				c.Submit += 30
				out = append(out, c)
				dups++
			}
		}
		return out
	})
	want := jsonRows(t, path)
	got := jsonRows(t, dup)
	for name, w := range want {
		g := got[name]
		rej, _ := g["rejected"].(map[string]any)
		if rej["duplicate_id"] != float64(dups) {
			t.Errorf("%s: rejected %v, want %d duplicate_id", name, g["rejected"], dups)
		}
		delete(g, "rejected")
		wb, _ := json.Marshal(w)
		gb, _ := json.Marshal(g)
		if string(wb) != string(gb) {
			t.Errorf("%s: scores with the copies rejected\n%s\nwant those of the log without them\n%s", name, gb, wb)
		}
	}
	code, out, errs := runCmd(t, dup, "-predictors", "naive")
	if code != 0 || !strings.Contains(out, "duplicate") {
		t.Errorf("text: exit %d, %s%s; want the duplicates named", code, out, errs)
	}
}

// Sizes, estimates and times beyond what the predictors hold (2^63 − 1 in
// a field) are rejected with a count, not an abort of the whole log: IBL
// refused the job and ended the run. They are counted under simulate's
// keys (sanitize's reasons): the size as larger_than_machine, the times
// as time_out_of_range; both were one out_of_range.
func TestOutOfRange(t *testing.T) {
	dir := t.TempDir()
	path := smallLog(t, dir, 400)
	const big = 1<<63 - 1
	huge := rewrite(t, path, dir, "huge.swf", func(js []swf.Job) []swf.Job {
		js[100].AllocProcs, js[100].ReqProcs = big, big
		js[200].ReqTime = big
		js[300].RunTime = big
		js[len(js)-1].Submit = big - 10
		return js
	})
	rows := jsonRows(t, huge)
	for name, r := range rows {
		rej, _ := r["rejected"].(map[string]any)
		if rej["larger_than_machine"] != float64(1) || rej["time_out_of_range"] != float64(3) || len(rej) != 2 {
			t.Errorf("%s: rejected %v, want 1 larger_than_machine and 3 time_out_of_range", name, r["rejected"])
		}
	}
}

// A predictor that answers no job (QBETS on a log submitted all at once:
// no history at any arrival) shows "–" in the text table, as its other
// cells do, not NaN, and a line under the table says they gave none.
func TestNoAnswerText(t *testing.T) {
	dir := t.TempDir()
	path := smallLog(t, dir, 300)
	burst := rewrite(t, path, dir, "burst.swf", func(js []swf.Job) []swf.Job {
		for i := range js {
			js[i].Submit, js[i].Wait = 0, js[i].Wait+1 // none started at the arrivals
		}
		return js
	})
	code, out, errs := runCmd(t, burst, "-predictors", "naive,qbets")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var qb string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "qbets ") {
			qb = l
		}
	}
	if !strings.Contains(qb, " 0 ") || strings.Contains(out, "NaN") || !strings.Contains(out, "no answer at all from naive, qbets") {
		t.Errorf("want qbets answering 0 jobs shown without NaN:\n%s", out)
	}
}

// With -machine below the log's largest jobs, the forward simulation
// cannot place those jobs and the forecast and estimates predictors answer
// them with the naive median instead, which the report now says (count
// and consequence) rather than score those answers as simulations
// silently.
func TestLargerThanMachine(t *testing.T) {
	path := smallLog(t, t.TempDir(), 300) // sizes 1–32 on 64 processors
	_, jobs, err := swf.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	over := 0
	for _, j := range jobs {
		if j.Size() > 8 {
			over++
		}
	}
	code, out, errs := runCmd(t, path, "-machine", "8", "-predictors", "forecast,naive")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if want := fmt.Sprintf("%d jobs larger than the machine (8 processors)", over); over == 0 || !strings.Contains(out, want) {
		t.Errorf("report lacks %q:\n%s", want, out)
	}
	rows := jsonRows(t, path, "-machine", "8", "-predictors", "forecast")
	if rows["forecast"]["replayed_larger_than_machine"] != float64(over) || rows["forecast"]["larger_than_machine"] != nil {
		t.Errorf("-json: replayed_larger_than_machine %v, want %d (and no top-level larger_than_machine: rejected's key)", rows["forecast"]["replayed_larger_than_machine"], over)
	}
	if _, out, _ := runCmd(t, path, "-predictors", "naive"); strings.Contains(out, "larger than the machine") {
		t.Errorf("note without a job larger than the machine:\n%s", out)
	}
}

// A job without a processor count is scored, not dropped, and the report
// counts it: the simulation holds it as asking none and leaves it out of
// the running jobs of every snapshot (sched/forecast.Online).
func TestNoSizeCounted(t *testing.T) {
	dir := t.TempDir()
	path := smallLog(t, dir, 300)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	n := 0
	for _, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if f := strings.Fields(line); len(f) == 18 && !strings.HasPrefix(line, ";") && n < 7 && f[0] != "1" {
			f[4], f[7] = "-1", "-1" // allocated and requested processors unknown
			line, n = strings.Join(f, " "), n+1
		}
		out = append(out, line)
	}
	noSize := filepath.Join(dir, "nosize.swf")
	if err := os.WriteFile(noSize, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, text, errs := runCmd(t, noSize, "-machine", "64", "-predictors", "forecast,naive")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if want := fmt.Sprintf("%d jobs without a processor count", n); n == 0 || !strings.Contains(text, want) {
		t.Errorf("report lacks %q:\n%s", want, text)
	}
	if rows := jsonRows(t, noSize, "-machine", "64", "-predictors", "forecast"); rows["forecast"]["replayed_no_size"] != float64(n) {
		t.Errorf("-json: replayed_no_size %v, want %d", rows["forecast"]["replayed_no_size"], n)
	}
}

// A machine size beyond any machine (a header's MaxProcs of 2^63 − 1, or
// -machine) is refused with its bound, as the simulator refuses it, not
// replayed with features divided by 9.2e18.
func TestMachineTooLarge(t *testing.T) {
	dir := t.TempDir()
	path := smallLog(t, dir, 100)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.swf")
	if err := os.WriteFile(big, []byte(strings.Replace(string(b), "; MaxProcs: 64", "; MaxProcs: 9223372036854775807", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{big}, {path, "-machine", "9223372036854775807"}} {
		code, out, errs := runCmd(t, append(args, "-predictors", "naive")...)
		if code == 0 || out != "" || !strings.Contains(errs, "2^40") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want an error naming the bound", args, code, out, errs)
		}
	}
}

// With -nodes, a job without a processor count is rejected under sched's
// reason, -json's rejected.no_size (documented with the other keys);
// without -nodes it is replayed and counted in the top-level replayed_no_size.
func TestNoSizeKeys(t *testing.T) {
	dir := t.TempDir()
	nodes := filepath.Join(dir, "nodes.csv")
	if err := os.WriteFile(nodes, []byte(gpuNodesCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	log := rewrite(t, gpuLog(t, dir, 300), dir, "nosize.swf", func(jobs []swf.Job) []swf.Job {
		jobs[100].Demand, jobs[100].AllocProcs, jobs[100].ReqProcs = nil, -1, -1
		return jobs
	})
	if code, out, errs := runCmd(t, "-predictors", "naive", "-nodes", nodes, log); code != 0 || !strings.Contains(out, "rejected: 1 no size") {
		t.Errorf("-nodes: exit %d, report lacks \"rejected: 1 no size\":\n%s%s", code, out, errs)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-nodes", nodes}, `"rejected":{"no_size":1}`},
		{nil, `"replayed_no_size":1,`}, // (1, not 10: the key is followed by trailing_zero_bytes)
	} {
		args := append(append([]string{"-predictors", "naive", "-json"}, c.args...), log)
		code, out, errs := runCmd(t, args...)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("%v: exit %d, %s%s; want %s", c.args, code, out, errs, c.want)
		}
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"duplicate_id", "larger_than_machine", "time_out_of_range", "fits_no_node", "no_size", "replayed_larger_than_machine", "replayed_no_size"} {
		if !strings.Contains(string(readme), "`"+key+"`") {
			t.Errorf("README.md does not name -json's %s", key)
		}
	}
}

// Jobs without a user estimate (field 9 unknown) are counted, in the text
// and in -json: forecast and estimates simulate them on the longest run
// seen before (sched's S6 rule, causal), a rule that changed them unsaid
// (OSC-Clust has no estimate at all: its estimates row is the rule's).
func TestNoEstimateCounted(t *testing.T) {
	dir := t.TempDir()
	path := smallLog(t, dir, 400)
	var none int
	some := rewrite(t, path, dir, "noest.swf", func(js []swf.Job) []swf.Job {
		for i := range js {
			switch i % 4 {
			case 0:
				js[i].ReqTime = -1
			case 1:
				js[i].ReqTime = 0 // no estimate either (swf.Job.HasEstimate)
			}
		}
		return js
	})
	rows := jsonRows(t, some, "-predictors", "naive,estimates")
	_, jobs, err := swf.ReadFile(some)
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		if j.ReqTime <= 0 && j.Wait >= 0 && j.Submit >= 0 {
			none++
		}
	}
	for name, r := range rows {
		if r["replayed_no_estimate"] != float64(none) {
			t.Errorf("%s: replayed_no_estimate %v, want %d", name, r["replayed_no_estimate"], none)
		}
	}
	code, out, errs := runCmd(t, some, "-predictors", "naive")
	if want := fmt.Sprintf("%d jobs without a user estimate", none); code != 0 || !strings.Contains(out, want) {
		t.Errorf("text: exit %d, %s%s; want %q", code, out, errs, want)
	}
	if none == 0 {
		t.Fatal("no job without an estimate in the test log")
	}
}

// A log in which nobody queued gives a board of 100% rows for any
// predictor answering under a minute: the report says it is degenerate
// (it did not), and -json's waited is 0; a log with waits has no such
// note and says how many waited.
func TestNoWaitDegenerate(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("; MaxProcs: 8\n")
	for i := 1; i <= 60; i++ {
		// 1 to 4 processors, 10 min each, a job every 5 min, never waiting
		fmt.Fprintf(&b, "%d %d 0 600 %d -1 -1 %d 900 -1 1 1 1 1 1 -1 -1 -1\n", i, 300*i, 1+i%4, 1+i%4)
	}
	quiet := filepath.Join(dir, "quiet.swf")
	if err := os.WriteFile(quiet, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd(t, quiet, "-predictors", "naive,estimates")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "degenerate: none of the") {
		t.Errorf("no degenerate note for a log where no job waited:\n%s", out)
	}
	for name, r := range jsonRows(t, quiet, "-predictors", "naive,estimates") {
		if w, ok := r["waited"].(float64); !ok || w != 0 {
			t.Errorf("%s: waited %v, want 0", name, r["waited"])
		}
	}
	busy := strings.Replace(b.String(), " 0 600 ", " 900 600 ", 30) // 30 jobs waited 15 min
	if err := os.WriteFile(quiet, []byte(busy), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, _ = runCmd(t, quiet, "-predictors", "naive")
	if strings.Contains(out, "degenerate") {
		t.Errorf("degenerate note on a log with waits:\n%s", out)
	}
	for name, r := range jsonRows(t, quiet, "-predictors", "naive") {
		if w, _ := r["waited"].(float64); w == 0 {
			t.Errorf("%s: waited %v, want the scored jobs that waited", name, r["waited"])
		}
	}
}

// The degenerate note says what the board shows: on a log where some jobs
// wait under a minute, answers under a minute are exact within ×2 and in
// mean |log10|, but AAE still tells them apart, so the note must not say
// "exact by every metric" (it did).
func TestNoWaitDegenerateClaim(t *testing.T) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 8\n")
	for i := 1; i <= 60; i++ {
		w := 0
		if i%3 == 0 {
			w = 40
		}
		fmt.Fprintf(&b, "%d %d %d 600 %d -1 -1 %d 900 -1 1 1 1 1 1 -1 -1 -1\n", i, 300*i, w, 1+i%4, 1+i%4)
	}
	path := filepath.Join(t.TempDir(), "short-waits.swf")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, _ := runCmd(t, path, "-predictors", "naive")
	i := strings.Index(out, "degenerate: ")
	if i < 0 {
		t.Fatalf("no degenerate note:\n%s", out)
	}
	note := out[i:]
	for name, r := range jsonRows(t, path, "-predictors", "naive") {
		if r["within2"] != 1.0 || r["mean_abs_log10"] != 0.0 {
			t.Fatalf("%s: within2 %v, mean_abs_log10 %v: want the ratios exact (the case tested)", name, r["within2"], r["mean_abs_log10"])
		}
		if aae, _ := r["aae_s"].(float64); aae > 0 && (strings.Contains(note, "every metric") || !strings.Contains(note, "AAE")) {
			t.Errorf("%s: AAE %v s, yet the note says: %s", name, aae, note)
		}
	}
}
