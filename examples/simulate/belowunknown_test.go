package main

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// A log with numbers below -1 (a clock-skewed wait, a run time of -3) is
// simulated whole, each such field read as -1 and said in a warning and
// in -json's warning_data; in the peer modes the schedule is the one of
// the same log with -1 written there, as pyss's and predictsim's is
// (checked by hand against both, field by field: wait, run time,
// processors, requested processors and time, user, submit, preceding
// job, think time). The lines failed with "value out of range".
func TestBelowUnknownPeers(t *testing.T) {
	dir := t.TempDir()
	base := "; MaxProcs: 8\n" +
		"1 0 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1\n" +
		"2 10 W 50 8 -1 -1 8 100 -1 1 2 1 1 1 1 -1 -1\n" +
		"3 20 3 R 2 -1 -1 2 60 -1 1 3 1 1 1 1 -1 -1\n" +
		"4 25 2 30 2 -1 -1 2 60 -1 1 3 1 1 1 1 -1 -1\n"
	below := writeTrace(t, dir, "below.swf", strings.NewReplacer("W", "-5", "R", "-3").Replace(base))
	unknown := writeTrace(t, dir, "unknown.swf", strings.NewReplacer("W", "-1", "R", "-1").Replace(base))
	code, out, errs := runCmd(t, below)
	if re := `(?m)^warning +2 fields held a number below -1, .* \(1 wait time, 1 run time; swf.Stats.BelowUnknown\)$`; code != 0 || !regexp.MustCompile(re).MatchString(out) {
		t.Errorf("exit %d, stderr %q; text lacks %s, got:\n%s", code, errs, re, out)
	}
	m := runJSON(t, below)
	want := map[string]any{"fields": 2.0, "by_field": map[string]any{"wait time": 1.0, "run time": 1.0}}
	if wd, _ := m["warning_data"].(map[string]any); !reflect.DeepEqual(wd["below_unknown"], want) {
		t.Errorf("-json warning_data below_unknown %v, want %v", wd["below_unknown"], want)
	}
	for _, compat := range []string{"pyss", "predictsim"} {
		sched := func(p string) string {
			csv := filepath.Join(dir, filepath.Base(p)+"."+compat+".csv")
			if code, _, errs := runCmd(t, "-compat", compat, "-jobs-out", csv, p); code != 0 {
				t.Fatalf("-compat %s %s: exit %d: %s", compat, p, code, errs)
			}
			b, err := os.ReadFile(csv)
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
		if a, b := sched(below), sched(unknown); a != b {
			t.Errorf("-compat %s: the log with -5 and -3 scheduled\n%s\nthe log with -1 there\n%s", compat, a, b)
		}
	}
}
