package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A log whose S7 window is empty (one job: it is the last arrival and the
// warm-up alike) has no utilization: "–" in the text and null in -json,
// as simulate says "over an empty window" and writes null. It printed
// 0.00 (the 0 sched.Summary stores) beside the "–" means, an idle machine.
func TestEmptyWindowUtilization(t *testing.T) {
	path := filepath.Join(t.TempDir(), "one.swf")
	if err := os.WriteFile(path, []byte("; MaxProcs: 64\n1 0 10 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if err := command(context.Background(), []string{"-trace", path}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, line := range strings.Split(out.String(), "\n") {
		f := strings.Fields(line)
		if len(f) == 5 && (f[0] == "EASY" || f[0] == "EASY+" || f[0] == "EASY++" || f[0] == "PERFECT++") {
			rows++
			if f[3] != "–" {
				t.Errorf("row %q: utilization %q, want –", line, f[3])
			}
		}
	}
	if rows != 4 {
		t.Fatalf("%d scheduler rows, want 4:\n%s", rows, out.String())
	}
	out.Reset()
	if err := command(context.Background(), []string{"-trace", path, "-json"}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	var r struct {
		Schedulers []map[string]any `json:"schedulers"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	for _, m := range r.Schedulers {
		if v, ok := m["utilization"]; !ok || v != nil {
			t.Errorf("-json %v: utilization %v, want null", m["variant"], v)
		}
	}
}
