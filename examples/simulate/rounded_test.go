package main

import (
	"reflect"
	"regexp"
	"testing"
)

// A log with fractional time fields, as the SWF definition allows, is
// simulated whole, the rounded fields counted in a warning and in -json's
// warning_data. It failed with "not a number" (line 3, run time "100.6").
func TestFractionalTimesWarned(t *testing.T) {
	p := writeTrace(t, t.TempDir(), "frac.swf", "; MaxProcs: 8\n"+
		"1 0 0 100 4 12.5 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n"+
		"2 10 0 100.6 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n"+
		"3 20.5 0 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n")
	code, out, errs := runCmd(t, p)
	for _, re := range []string{`(?m)^simulated +3$`, `(?m)^warning +2 time fields written with a fraction read rounded to the nearest second`} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("exit %d, stderr %q; text lacks %s, got:\n%s", code, errs, re, out)
		}
	}
	m := runJSON(t, p)
	if wd, _ := m["warning_data"].(map[string]any); !reflect.DeepEqual(wd["rounded"], map[string]any{"fields": 2.0}) {
		t.Errorf("-json warning_data rounded %v, want fields 2", wd["rounded"])
	}
}

// Fractions in the wait or the think time alone (fields 3 and 18) change
// no schedule: the warning says so, in a peer mode too, where it said the
// peer could differ (it parses neither field). A fraction in a field
// simulated (here the run time) keeps the peer's caveat.
func TestRoundedOutsideSimulatedFields(t *testing.T) {
	dir := t.TempDir()
	unread := writeTrace(t, dir, "unread.swf", "; MaxProcs: 8\n"+
		"1 0 0.4 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 7.5\n"+
		"2 10 3.5 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n")
	read := writeTrace(t, dir, "read.swf", "; MaxProcs: 8\n"+
		"1 0 0.4 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n"+
		"2 10 0 100.6 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n")
	none := `(?m)^warning +3 time fields written with a fraction read rounded to the nearest second.*, all in the wait or the think time \(fields 3, 18\), which no simulation reads: the schedule is that of the whole seconds$`
	peer := `(?m)^warning +2 time fields .*; the peer truncates a run time's fraction \(field 4\)`
	for _, c := range []struct {
		trace string
		args  []string
		want  string
	}{
		{unread, nil, none},
		{unread, []string{"-compat", "pyss"}, none},
		{unread, []string{"-compat", "predictsim"}, none},
		{read, []string{"-compat", "pyss"}, peer},
	} {
		code, out, errs := runCmd(t, append([]string{c.trace}, c.args...)...)
		if code != 0 || !regexp.MustCompile(c.want).MatchString(out) {
			t.Errorf("%s %v: exit %d, stderr %q; text lacks %s, got:\n%s", c.trace, c.args, code, errs, c.want, out)
		}
	}
	m := runJSON(t, unread, "-compat", "pyss")
	if wd, _ := m["warning_data"].(map[string]any); !reflect.DeepEqual(wd["rounded"], map[string]any{"fields": 3.0, "simulated_fields": 0.0}) {
		t.Errorf("-json warning_data rounded %v, want fields 3, simulated_fields 0", wd["rounded"])
	}
}
