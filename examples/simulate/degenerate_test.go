package main

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
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
