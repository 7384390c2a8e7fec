package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Time fields written with a fraction (the SWF definition allows them) are
// read rounded, and swfstat says how many, in text and -json, as simulate
// does in its warnings.
func TestRoundedTimesCounted(t *testing.T) {
	p := filepath.Join(t.TempDir(), "frac.swf")
	log := "; MaxProcs: 8\n" +
		"1 0 0 100 4 12.5 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"2 10 0 100.6 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"3 20.5 0 100 4 -1 -1 4 200.0 -1 1 1 1 -1 1 -1 -1 -1\n"
	if err := os.WriteFile(p, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs strings.Builder
	if code := run(context.Background(), []string{p}, strings.NewReader(""), &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if !regexp.MustCompile(`(?m)^time fields rounded +2 \(`).MatchString(out.String()) {
		t.Errorf("text report lacks the rounded count:\n%s", out.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"-json", p}, strings.NewReader(""), &out, &errs); code != 0 {
		t.Fatalf("-json: exit %d: %s", code, errs.String())
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out.String()), &m); err != nil {
		t.Fatal(err)
	}
	if m["time_fields_rounded"] != 2.0 || m["jobs"] != 3.0 {
		t.Errorf("-json time_fields_rounded %v, jobs %v; want 2 and 3", m["time_fields_rounded"], m["jobs"])
	}
}
