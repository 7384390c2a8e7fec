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
