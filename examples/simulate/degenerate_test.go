package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
)

// noFields is a log without requested processors (field 8) or estimates
// (field 9), as NASA-iPSC and SDSC-Par are: under -compat predictsim
// every job runs 1 second, as predictsim runs it.
const noFields = `; MaxProcs: 8
   1     0 -1  100 4 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1
   2  1000 -1  200 4 -1 -1 -1 -1 -1 1 2 1 -1 -1 -1 -1 -1
   3  2000 -1  300 8 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1
   4  3000 -1   50 2 -1 -1 -1 -1 -1 1 3 1 -1 -1 -1 -1 -1
`

// The degenerate schedule is named, with each symptom and the jobs
// changed per rule, in the text and in -json; the default mode on the
// same log is degenerate too (every estimate filled in, S6), with other
// figures.
func TestDegenerate(t *testing.T) {
	p := writeTrace(t, t.TempDir(), "nofields.swf", noFields)
	code, out, errs := runCmd(t, p, "-compat", "predictsim")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	const want = "warning           degenerate schedule, it reflects the job-building rules more than the log: " +
		"4 of 4 jobs (100%) ran 1 second instead of their logged time; 4 of 4 jobs (100%) changed by rule no_estimate_1s_run; " +
		"utilization 0.001; every wait 0 s; jobs changed per rule: no_estimate_1s_run 4, size_from_allocated 4\n"
	if !strings.Contains(out, want) {
		t.Errorf("text lacks\n%s\ngot:\n%s", want, out)
	}
	for _, re := range []string{`(?m)^no estimate +4 `, `(?m)^changed by rules +no_estimate_1s_run 4, size_from_allocated 4$`} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("text lacks %s:\n%s", re, out)
		}
	}

	m := runJSON(t, p, "-compat", "predictsim")
	if ws := m["warnings"].([]any); len(ws) != 1 || ws[0] != strings.TrimSpace(strings.TrimPrefix(want, "warning           ")) {
		t.Errorf("JSON warnings %q", ws)
	}
	d := m["warning_data"].(map[string]any)["degenerate"]
	wantD := map[string]any{
		"symptoms":          []any{"one_second_jobs", "mostly_changed_by_rule", "utilization_near_zero", "all_waits_zero"},
		"jobs_simulated":    4.0,
		"jobs_rejected":     0.0,
		"rejected":          map[string]any{},
		"one_second_jobs":   4.0,
		"utilization":       m["utilization"],
		"all_waits_zero":    true,
		"mostly_changed_by": []any{"no_estimate_1s_run"},
		"changed":           map[string]any{"no_estimate_1s_run": 4.0, "size_from_allocated": 4.0},
	}
	if !reflect.DeepEqual(d, wantD) {
		t.Errorf("warning_data.degenerate = %v, want %v", d, wantD)
	}
	if !reflect.DeepEqual(m["changed"], wantD["changed"]) || m["one_second_jobs"] != 4.0 || m["no_estimate"] != 4.0 {
		t.Errorf("changed %v, one_second_jobs %v, no_estimate %v", m["changed"], m["one_second_jobs"], m["no_estimate"])
	}
	if u := m["utilization"].(float64); u >= 0.01 {
		t.Errorf("utilization %v", u)
	}

	// The default mode keeps the run times; every estimate is S6's.
	m = runJSON(t, p)
	if ws := m["warnings"].([]any); len(ws) != 1 || ws[0] != "degenerate schedule, it reflects the job-building rules more than the log: "+
		"4 of 4 jobs (100%) changed by rule estimate_filled; every wait 0 s; jobs changed per rule: estimate_filled 4" {
		t.Errorf("default mode: warnings %q", ws)
	}
}

// partEstimates has an estimate on one line of four: -kill ends job 1 at
// its estimate (60 s) and no other, although S6 gives the others that 60 s
// as their estimate; the jobs without one are counted and named.
const partEstimates = `; MaxProcs: 8
   1     0 -1  100 4 -1 -1 4  60 -1 1 1 1 -1 -1 -1 -1 -1
   2    10 -1  200 4 -1 -1 4  -1 -1 1 2 1 -1 -1 -1 -1 -1
   3    20 -1  300 8 -1 -1 8  -1 -1 1 1 1 -1 -1 -1 -1 -1
   4    30 -1   50 2 -1 -1 2  -1 -1 1 3 1 -1 -1 -1 -1 -1
`

func TestKillOnlyUserEstimates(t *testing.T) {
	p := writeTrace(t, t.TempDir(), "part.swf", partEstimates)
	code, out, errs := runCmd(t, p, "-kill")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	const kw = "3 of 4 jobs had no estimate (field 9): -kill did not end them, they ran their logged time (S6 filled in an estimate for planning only)"
	for _, re := range []string{
		`(?m)^warning +` + regexp.QuoteMeta(kw) + `$`,
		`(?m)^killed +1 `, `(?m)^no estimate +3 `, `(?m)^estimates filled +3 `,
		`(?m)^changed by rules +estimate_filled 3, killed_at_estimate 1$`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("text lacks %s:\n%s", re, out)
		}
	}
	m := runJSON(t, p, "-kill")
	if m["killed"] != 1.0 || m["no_estimate"] != 3.0 {
		t.Errorf("killed %v, no_estimate %v", m["killed"], m["no_estimate"])
	}
	wd := m["warning_data"].(map[string]any)
	if k := wd["kill_no_estimate"]; !reflect.DeepEqual(k, map[string]any{"no_estimate": 3.0, "jobs_simulated": 4.0}) {
		t.Errorf("warning_data.kill_no_estimate = %v", k)
	}
	// Every job ends after the last arrival (S7 averages none), jobs 2 and
	// 3 overran their filled-in 60 s (S3), and most estimates are made up.
	if ws := m["warnings"].([]any); len(ws) != 4 || !strings.HasPrefix(ws[0].(string), "none of the 4 simulated jobs is averaged") ||
		!strings.HasPrefix(ws[1].(string), "2 jobs ran more than twice") || ws[2] != kw ||
		ws[3] != "degenerate schedule, it reflects the job-building rules more than the log: 3 of 4 jobs (75%) changed by rule estimate_filled; "+
			"jobs changed per rule: estimate_filled 3, killed_at_estimate 1" {
		t.Errorf("warnings %q", ws)
	}
}

// In a peer mode a job without an estimate runs 1 second and no estimate
// is filled (sched.Peer's table), so -kill's warning must not say they
// ran their logged time with an S6 estimate, as it did beside the
// degenerate warning's "ran 1 second" (every held-out log without
// estimates: NASA-iPSC, SDSC-Par, OSC-Clust, a fifth of LLNL-Atlas). The
// jobs list shows the 1-second runs the warning names.
func TestKillNoEstimatePeer(t *testing.T) {
	dir := t.TempDir()
	p := writeTrace(t, dir, "part.swf", partEstimates)
	for _, compat := range []string{"pyss", "predictsim"} {
		out := filepath.Join(dir, compat+".csv")
		m := runJSON(t, p, "-kill", "-compat", compat, "-jobs-out", out)
		want := "3 of 4 jobs had no estimate (field 9): -compat " + compat + " ran each 1 second, as the peer does; " +
			"-kill changes nothing in a peer mode (the peer already cuts every run at its estimate)"
		if ws := m["warnings"].([]any); !slices.Contains(ws, any(want)) {
			t.Errorf("%s: warnings %q, want %q", compat, ws, want)
		}
		if m["killed"] != 0.0 || m["estimates_filled"] != 0.0 || m["no_estimate"] != 3.0 {
			t.Errorf("%s: killed %v, estimates_filled %v, no_estimate %v", compat, m["killed"], m["estimates_filled"], m["no_estimate"])
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		id, run := slices.Index(rows[0], "id"), slices.Index(rows[0], "run")
		for _, r := range rows[1:] {
			if r[id] != "1" && r[run] != "1" { // jobs 2-4 have no estimate
				t.Errorf("%s: job %s ran %s s, the warning says 1", compat, r[id], r[run])
			}
		}
	}
}

// Every warning has its figures in warning_data, under its kind: on the
// small trace (one kind) and the degenerate one (another).
func TestWarningTwins(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		text  string
		args  []string
		kinds []string
	}{
		{small, nil, []string{"overran"}},
		{partEstimates, []string{"-kill"}, []string{"nothing_averaged", "overran", "kill_no_estimate", "degenerate"}},
		{noFields, []string{"-compat", "pyss"}, []string{"degenerate"}},
	} {
		p := writeTrace(t, dir, "t.swf", c.text)
		m := runJSON(t, append([]string{p}, c.args...)...)
		wd := m["warning_data"].(map[string]any)
		var kinds []string
		for k := range wd {
			kinds = append(kinds, k)
		}
		if len(m["warnings"].([]any)) != len(c.kinds) || len(kinds) != len(c.kinds) {
			t.Errorf("%v: warnings %q, warning_data %v; want kinds %v", c.args, m["warnings"], wd, c.kinds)
		}
		for _, k := range c.kinds {
			if wd[k] == nil {
				t.Errorf("%v: no warning_data.%s: %v", c.args, k, wd)
			}
		}
	}
}

// A log whose largest estimate is one corrupt value (LLNL-Atlas's job
// 6762: 738,738,720 s, 23 years) filled every missing estimate (S6) with
// it, and simulate said only "estimates filled 6294": its degeneracy
// warning looks at more than half the jobs. It now warns as
// examples/estimates does (cli.DegenerateEMax: more than 10× the next
// largest, or longer than the log's submissions), in the text and in
// -json, on the streaming path and the whole one; the schedule is the
// same. A log with no estimate missing, or a sane largest one, draws none.
func TestDegenerateEMax(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("; MaxProcs: 8\n")
	for i := range 40 {
		est := 3600 * int64(1+i%4)
		switch {
		case i == 7:
			est = 738738720
		case i%10 == 9:
			est = -1
		}
		fmt.Fprintf(&b, "%d %d 0 100 1 -1 -1 1 %d -1 1 1 1 1 1 -1 -1 -1\n", i+1, 3600*i, est)
	}
	p := writeTrace(t, dir, "emax.swf", b.String())
	const want = "degenerate E_max: job 8's estimate of 738738720 s (23.4 years) is 51301× the next largest (14400 s) and longer than the log's 1.6 days of submissions; " +
		"as the log's largest estimate it is E_max (S6), and 5 jobs (12.5%) got an estimate above 14400 s: the schedule planned them with it (examples/estimates -emax writes the log with another E_max)"
	for _, args := range [][]string{{p}, {p, "-out", filepath.Join(dir, "out.swf")}} {
		code, out, errs := runCmd(t, args...)
		if code != 0 || !strings.Contains(out, "warning           "+want+"\n") || !strings.Contains(out, "estimates filled  4 ") {
			t.Errorf("%v: exit %d, text lacks the warning %q:\n%s%s", args, code, want, out, errs)
		}
		m := runJSON(t, args...)
		wantD := map[string]any{"job": 8.0, "e_max_s": 738738720.0, "next_largest_s": 14400.0, "log_span_s": 3600.0 * 39, "jobs_above_next": 5.0, "percent": 12.5}
		if d := m["warning_data"].(map[string]any)["degenerate_e_max"]; !reflect.DeepEqual(d, wantD) || !slices.Contains(m["warnings"].([]any), any(want)) {
			t.Errorf("%v: -json warning_data.degenerate_e_max %v, want %v; warnings %q", args, d, wantD, m["warnings"])
		}
	}
	full := writeTrace(t, dir, "full.swf", strings.ReplaceAll(b.String(), " -1 -1 1 1 1 1 1 -1 -1 -1\n", " 3600 -1 1 1 1 1 1 -1 -1 -1\n"))
	sane := writeTrace(t, dir, "sane.swf", strings.Replace(b.String(), " 738738720 ", " 18000 ", 1))
	for _, q := range []string{full, sane} {
		if _, out, _ := runCmd(t, q); strings.Contains(out, "degenerate E_max") {
			t.Errorf("%s: a warning without a degenerate E_max filled in:\n%s", filepath.Base(q), out)
		}
	}
}

// LLNL-Atlas, the log that showed it: job 6762's 23 years among every
// line's estimates (S6 counts every line, so the next largest is 2073600
// s where examples/estimates, over the sane jobs, finds 1296000 s).
func TestDegenerateEMaxAtlas(t *testing.T) {
	m := runJSON(t, tracetest.Path(t, tracetest.LLNL))
	d, _ := m["warning_data"].(map[string]any)["degenerate_e_max"].(map[string]any)
	if d["job"] != 6762.0 || d["e_max_s"] != 738738720.0 || d["next_largest_s"] != 2073600.0 || d["jobs_above_next"] != 6295.0 || m["estimates_filled"] != 6294.0 {
		t.Errorf("degenerate_e_max %v, estimates_filled %v; want job 6762, 738738720 s, next 2073600 s, 6295 jobs, 6294 filled", d, m["estimates_filled"])
	}
	for _, want := range []string{"(23.4 years) is 356× the next largest (2073600 s)", "6295 jobs (16.1%)"} { // the README's
		if ws, _ := m["warnings"].([]any); !slices.ContainsFunc(ws, func(w any) bool { return strings.Contains(w.(string), want) }) {
			t.Errorf("warnings %q lack %q", ws, want)
		}
	}
}

// A log of which most jobs are rejected (a header's machine smaller than
// most of them, numbers repeated) leaves a schedule of the few others:
// it is degenerate, and says how many were rejected and why, in the text
// and in -json. It said nothing: 224 of lublin_256's first 300 jobs
// rejected on a header of 1 processor gave a report of the 76 left.
func TestDegenerateMostlyRejected(t *testing.T) {
	const log = `; MaxProcs: 4
   1     0 -1  100 8 -1 -1 8 200 -1 1 1 1 -1 -1 -1 -1 -1
   2    10 -1  100 8 -1 -1 8 200 -1 1 1 1 -1 -1 -1 -1 -1
   3    20 -1  100 2 -1 -1 2 200 -1 1 1 1 -1 -1 -1 -1 -1
   3    30 -1  100 2 -1 -1 2 200 -1 1 1 1 -1 -1 -1 -1 -1
   5    40 -1  100 2 -1 -1 2 200 -1 1 1 1 -1 -1 -1 -1 -1
`
	p := writeTrace(t, t.TempDir(), "rej.swf", log)
	code, out, errs := runCmd(t, p)
	const want = "degenerate schedule, it reflects the job-building rules more than the log: " +
		"3 of 5 jobs (60%) rejected (1 duplicate ID, 2 larger than machine), the schedule is of the rest; jobs changed per rule: none"
	if code != 0 || !regexp.MustCompile(`(?m)^warning +`+regexp.QuoteMeta(want)+`$`).MatchString(out) {
		t.Errorf("exit %d, stderr %q; text lacks\n%s\ngot:\n%s", code, errs, want, out)
	}
	m := runJSON(t, p)
	d, _ := m["warning_data"].(map[string]any)["degenerate"].(map[string]any)
	if d == nil || !reflect.DeepEqual(d["symptoms"], []any{"mostly_rejected"}) || d["jobs_rejected"] != 3.0 ||
		!reflect.DeepEqual(d["rejected"], map[string]any{"duplicate_id": 1.0, "larger_than_machine": 2.0}) {
		t.Errorf("warning_data.degenerate = %v", d)
	}
	// Less than half, or exactly half, rejected is not most: no warning.
	fewer := strings.Replace(log, "   1     0 -1  100 8 -1 -1 8", "   1     0 -1  100 2 -1 -1 2", 1)
	half := strings.Replace(strings.Replace(log, "   2    10 -1  100 8 -1 -1 8", "   2    10 -1  100 2 -1 -1 2", 1),
		"   5    40 -1  100 2 -1 -1 2 200 -1 1 1 1 -1 -1 -1 -1 -1\n", "", 1)
	for what, text := range map[string]string{"2 of 5": fewer, "2 of 4": half} {
		p = writeTrace(t, t.TempDir(), "few.swf", text)
		if code, out, _ := runCmd(t, p); code != 0 || strings.Contains(out, "degenerate") || !regexp.MustCompile(`(?m)^rejected +2$`).MatchString(out) {
			t.Errorf("%s rejected: exit %d, got:\n%s", what, code, out)
		}
	}
}

// The lines of partial executions (status 2, 3 and 4: the runs of a
// checkpointed job, whose summary line is simulated) are not rejected
// jobs: two jobs of three partial lines each were "6 of 8 jobs (75%)
// rejected", a degenerate schedule, though both jobs were simulated.
// -json counts the lines apart (partial_lines) where a real symptom
// makes the warning.
func TestDegenerateNotPartialLines(t *testing.T) {
	const log = `; MaxProcs: 4
   1     0 -1  300 2 -1 -1 2 400 -1 1 1 1 -1 -1 -1 -1 -1
   1     0 -1  100 2 -1 -1 2 400 -1 2 1 1 -1 -1 -1 -1 -1
   1     0 -1  100 2 -1 -1 2 400 -1 2 1 1 -1 -1 -1 -1 -1
   1     0 -1  100 2 -1 -1 2 400 -1 3 1 1 -1 -1 -1 -1 -1
   2    10 -1  300 2 -1 -1 2 400 -1 1 2 1 -1 -1 -1 -1 -1
   2    10 -1  100 2 -1 -1 2 400 -1 2 2 1 -1 -1 -1 -1 -1
   2    10 -1  100 2 -1 -1 2 400 -1 2 2 1 -1 -1 -1 -1 -1
   2    10 -1  100 2 -1 -1 2 400 -1 4 2 1 -1 -1 -1 -1 -1
`
	p := writeTrace(t, t.TempDir(), "ckpt.swf", log)
	code, out, errs := runCmd(t, p)
	if code != 0 || strings.Contains(out, "degenerate") || !regexp.MustCompile(`(?m)^simulated +2$`).MatchString(out) ||
		!regexp.MustCompile(`(?m)^  partial execution +6$`).MatchString(out) {
		t.Errorf("exit %d, stderr %q; want 2 jobs simulated, 6 partial lines rejected, no degenerate warning:\n%s", code, errs, out)
	}
	// With most jobs rejected besides (three larger than the machine),
	// the warning counts the jobs, and the partial lines apart.
	big := log + "   3    20 -1  100 8 -1 -1 8 200 -1 1 3 1 -1 -1 -1 -1 -1\n" +
		"   4    30 -1  100 8 -1 -1 8 200 -1 1 3 1 -1 -1 -1 -1 -1\n" +
		"   5    40 -1  100 8 -1 -1 8 200 -1 1 3 1 -1 -1 -1 -1 -1\n"
	p = writeTrace(t, t.TempDir(), "ckptbig.swf", big)
	const want = "3 of 5 jobs (60%) rejected (3 larger than machine), the schedule is of the rest"
	if code, out, _ := runCmd(t, p); code != 0 || !strings.Contains(out, want) {
		t.Errorf("exit %d; text lacks %q:\n%s", code, want, out)
	}
	m := runJSON(t, p)
	d, _ := m["warning_data"].(map[string]any)["degenerate"].(map[string]any)
	if d == nil || d["jobs_rejected"] != 3.0 || d["partial_lines"] != 6.0 ||
		!reflect.DeepEqual(d["rejected"], map[string]any{"larger_than_machine": 3.0}) {
		t.Errorf("warning_data.degenerate = %v", d)
	}
}

// Under -slurm-conf, a run whose jobs the policy mostly cancelled at
// submission (their queue names no partition of slurm.conf) is said to be
// degenerate with the count and reasons, as one whose jobs were mostly
// rejected: every figure is of the few jobs left. Half is not most.
func TestDegenerateMostlyCancelled(t *testing.T) {
	dir := t.TempDir()
	conf := writeTrace(t, dir, "slurm.conf", "PartitionName=batch Nodes=ALL Default=YES\n")
	const head = "; MaxProcs: 4\n; Queue: 3 astro\n"
	const astro, plain = "%d %d -1 10 1 -1 -1 1 10 -1 1 1 1 -1 3 -1 -1 -1\n", "%d %d -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n"
	log := func(cancelled, kept int) string {
		var b strings.Builder
		b.WriteString(head)
		for i := range cancelled + kept {
			f := astro
			if i >= cancelled {
				f = plain
			}
			fmt.Fprintf(&b, f, i+1, 10*i)
		}
		return b.String()
	}
	p := writeTrace(t, dir, "most.swf", log(3, 2))
	code, out, errs := runCmd(t, "-slurm-conf", conf, p)
	const want = "degenerate schedule, it reflects the job-building rules more than the log: " +
		"3 of 5 jobs (60%) cancelled at submission by the Slurm policy (3 unknown partition), the schedule is of the rest; every wait 0 s; jobs changed per rule: none"
	if code != 0 || !regexp.MustCompile(`(?m)^warning +`+regexp.QuoteMeta(want)+`$`).MatchString(out) {
		t.Errorf("exit %d, stderr %q; text lacks\n%s\ngot:\n%s", code, errs, want, out)
	}
	m := runJSON(t, "-slurm-conf", conf, p)
	d, _ := m["warning_data"].(map[string]any)["degenerate"].(map[string]any)
	if d == nil || !reflect.DeepEqual(d["symptoms"], []any{"mostly_cancelled", "all_waits_zero"}) || d["jobs_cancelled"] != 3.0 ||
		!reflect.DeepEqual(d["cancelled"], map[string]any{"unknown partition": 3.0}) {
		t.Errorf("warning_data.degenerate = %v", d)
	}
	p = writeTrace(t, dir, "half.swf", log(2, 2))
	if code, out, _ := runCmd(t, "-slurm-conf", conf, p); code != 0 || strings.Contains(out, "degenerate") {
		t.Errorf("2 of 4 cancelled: exit %d, got:\n%s", code, out)
	}
}

// A log whose lines carry no job number (-1, SWF's "missing") is
// simulated whole, each job counted under id_made_up in the text and in
// -json; a made-up number changes no job's size or times, so the schedule
// is not called degenerate for it. It simulated 1 job and rejected the
// others as duplicate IDs, and a warning said so.
func TestNoJobNumbers(t *testing.T) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 4\n")
	for i := range 20 {
		fmt.Fprintf(&b, "-1 %d -1 100 2 -1 -1 2 200 -1 1 1 1 -1 -1 -1 -1 -1\n", 30*i)
	}
	p := writeTrace(t, t.TempDir(), "noid.swf", b.String())
	code, out, errs := runCmd(t, p)
	for _, re := range []string{`(?m)^simulated +20$`, `(?m)^rejected +0$`, `(?m)^changed by rules +id_made_up 20$`} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("exit %d, stderr %q; text lacks %s, got:\n%s", code, errs, re, out)
		}
	}
	if strings.Contains(out, "degenerate") {
		t.Errorf("a log without job numbers called degenerate:\n%s", out)
	}
	m := runJSON(t, p)
	if !reflect.DeepEqual(m["changed"], map[string]any{"id_made_up": 20.0}) || m["jobs_rejected"] != 0.0 {
		t.Errorf("-json: changed %v, jobs_rejected %v; want id_made_up 20 and none", m["changed"], m["jobs_rejected"])
	}
}

// "every wait 0 s" was said of the averaged jobs' mean wait: under
// -compat pyss -kill on partEstimates job 3 waits 40 s, but S7 averages
// only job 2, so the degenerate warning said every wait was 0. Every
// simulated job's wait is looked at now (the whole read's records).
func TestAllWaitsZeroEveryJob(t *testing.T) {
	p := writeTrace(t, t.TempDir(), "part.swf", partEstimates)
	m := runJSON(t, p, "-kill", "-compat", "pyss")
	d := m["warning_data"].(map[string]any)["degenerate"].(map[string]any)
	if d["all_waits_zero"] != false || slices.Contains(d["symptoms"].([]any), any("all_waits_zero")) {
		t.Errorf("all_waits_zero %v, symptoms %v; job 3 waited", d["all_waits_zero"], d["symptoms"])
	}
	for _, w := range m["warnings"].([]any) {
		if strings.Contains(w.(string), "every wait 0 s") {
			t.Errorf("warning %q, but job 3 waited", w)
		}
	}
	if m["mean_wait_s"] != 0.0 || m["jobs_averaged"] != 1.0 {
		t.Errorf("mean wait %v over %v jobs: the case is gone", m["mean_wait_s"], m["jobs_averaged"])
	}
}

// excludedWait has no estimates (default mode: every one filled, a
// degenerate symptom) and one job that waits: job 2 waits for job 1 until
// 10,000 s, and both end after the last arrival, so S7 averages neither;
// jobs 3-6 start at once. The streaming path (a file, default mode) keeps
// no records: its observer must tell that job 2 waited, as the whole
// read's records do, and both reports must agree.
const excludedWait = `; MaxProcs: 4
1     0 -1 10000 3 -1 -1 3 -1 -1 1 1 1 -1 -1 -1 -1 -1
2    10 -1    10 2 -1 -1 2 -1 -1 1 1 1 -1 -1 -1 -1 -1
3    20 -1    10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1
4   100 -1    10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1
5   200 -1    10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1
6   300 -1    10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1
`

func TestAllWaitsZeroStreamed(t *testing.T) {
	p := writeTrace(t, t.TempDir(), "excluded.swf", excludedWait)
	streamedSame(t, p)
	m := runJSON(t, p)
	d := m["warning_data"].(map[string]any)["degenerate"].(map[string]any)
	if d["all_waits_zero"] != false {
		t.Errorf("all_waits_zero %v, symptoms %v; job 2 waited", d["all_waits_zero"], d["symptoms"])
	}
	if m["mean_wait_s"] != 0.0 {
		t.Errorf("mean wait %v over %v jobs: the averaged jobs waited, the case is gone", m["mean_wait_s"], m["jobs_averaged"])
	}
	// The same log with job 2 able to start at once: every wait 0, said.
	p = writeTrace(t, t.TempDir(), "none.swf", strings.Replace(excludedWait, "10000 3 -1 -1 3", "10000 2 -1 -1 2", 1))
	streamedSame(t, p)
	m = runJSON(t, p)
	if d := m["warning_data"].(map[string]any)["degenerate"].(map[string]any); d["all_waits_zero"] != true {
		t.Errorf("no job waits: all_waits_zero %v", d["all_waits_zero"])
	}
}

// Under -slurm-conf with named partitions, a log's queue 0 (SWF's
// interactive jobs, "no queue" in many archive logs) runs in the default
// partition, as -1 does, counted under queue_0_no_partition in the text
// and in -json, and the schedule is not called degenerate for it: every
// job was cancelled as "unknown partition".
func TestSlurmQueueZero(t *testing.T) {
	dir := t.TempDir()
	conf := writeTrace(t, dir, "slurm.conf", "PartitionName=batch Nodes=ALL Default=YES\nPartitionName=debug Nodes=ALL\n")
	var b strings.Builder
	b.WriteString("; MaxProcs: 4\n")
	for i := range 5 {
		fmt.Fprintf(&b, "%d %d -1 10 1 -1 -1 1 10 -1 1 1 1 -1 0 -1 -1 -1\n", i+1, 10*i)
	}
	p := writeTrace(t, dir, "q0.swf", b.String())
	code, out, errs := runCmd(t, "-slurm-conf", conf, p)
	for _, re := range []string{`(?m)^cancelled +0$`, `(?m)^changed by rules +queue_0_no_partition 5$`} {
		if code != 0 || !regexp.MustCompile(re).MatchString(out) || strings.Contains(out, "degenerate") {
			t.Errorf("exit %d, stderr %q; text lacks %s (or is degenerate), got:\n%s", code, errs, re, out)
		}
	}
	if m := runJSON(t, "-slurm-conf", conf, p); !reflect.DeepEqual(m["changed"], map[string]any{"queue_0_no_partition": 5.0}) {
		t.Errorf("changed %v", m["changed"])
	}
}
