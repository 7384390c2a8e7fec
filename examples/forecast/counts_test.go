package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -json says how many jobs were replayed and how many were skipped for
// want of a logged wait, as the text's first line does, so that its
// counts add up to the log's jobs (read = replayed + skipped_no_wait +
// Σ rejected); it had neither (SDSC-Par: 805 skipped, in the text only).
func TestJSONCountsAddUp(t *testing.T) {
	log := "; MaxProcs: 64\n" +
		"1 0 10 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"2 5 -1 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n" + // no wait: skipped
		"1 7 3 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n" + // job 1 again: rejected
		"3 9 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"4 12 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n"
	path := filepath.Join(t.TempDir(), "log.swf")
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd(t, "-json", "-predictors", "naive,forecast", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	for _, l := range lines {
		var r struct {
			Replayed      *int           `json:"replayed"`
			SkippedNoWait *int           `json:"skipped_no_wait"`
			Rejected      map[string]int `json:"rejected"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if r.Replayed == nil || r.SkippedNoWait == nil || *r.Replayed != 3 || *r.SkippedNoWait != 1 || r.Rejected["duplicate_id"] != 1 {
			t.Errorf("%s: want replayed 3, skipped_no_wait 1, rejected duplicate_id 1 (5 jobs read)", l)
		}
	}
	if len(lines) != 2 {
		t.Errorf("%d lines, want 2:\n%s", len(lines), stdout)
	}
}
