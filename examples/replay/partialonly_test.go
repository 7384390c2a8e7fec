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

// A job given by partial-execution lines only (no summary line under its
// number) is left out whole: the report says how many, in the text and
// in -json, where it had said that every partial line's job had its
// summary line simulated.
func TestPartialOnlyJobsSaid(t *testing.T) {
	const log = "; MaxProcs: 4\n" +
		"1 0 5 300 2 -1 -1 2 400 -1 1 1 1 -1 -1 -1 -1 -1\n" +
		"1 0 5 100 2 -1 -1 2 400 -1 2 1 1 -1 -1 -1 -1 -1\n" +
		"2 10 5 100 2 -1 -1 2 400 -1 2 2 1 -1 -1 -1 -1 -1\n" + // job 2: partial lines only
		"2 10 5 200 2 -1 -1 2 400 -1 3 2 1 -1 -1 -1 -1 -1\n" +
		"3 20 5 300 2 -1 -1 2 400 -1 1 2 1 -1 -1 -1 -1 -1\n" +
		"4 30 5 300 2 -1 -1 2 400 -1 1 2 1 -1 -1 -1 -1 -1\n"
	path := filepath.Join(t.TempDir(), "orphan.swf")
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if err := command(context.Background(), []string{"-trace", path}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	if want := "save 1 job of partial lines only (no summary line), left out whole)"; !strings.Contains(out.String(), want) {
		t.Errorf("report lacks %q:\n%s", want, out.String())
	}
	out.Reset()
	if err := command(context.Background(), []string{"-json", "-trace", path}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	var r struct {
		PartialOnly int `json:"partial_only_jobs"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || r.PartialOnly != 1 {
		t.Errorf("-json partial_only_jobs %d (%v), want 1:\n%s", r.PartialOnly, err, out.String())
	}
}
