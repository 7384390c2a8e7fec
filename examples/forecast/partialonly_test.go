package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A job given by partial-execution lines only (no summary line under its
// number; one without a number is none) is left out whole: the text and
// -json say how many, where the first line said only "rejected: 4
// partial execution".
func TestPartialOnlyJobsSaid(t *testing.T) {
	log := "; MaxProcs: 64\n" +
		"1 0 10 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"1 0 10 50 4 -1 -1 4 200 -1 2 1 1 1 1 -1 -1 -1\n" + // job 1's part: it has its summary line
		"2 5 3 100 4 -1 -1 4 200 -1 2 1 1 1 1 -1 -1 -1\n" + // job 2: partial lines only
		"2 5 3 100 4 -1 -1 4 200 -1 3 1 1 1 1 -1 -1 -1\n" +
		"-1 8 3 100 4 -1 -1 4 200 -1 4 1 1 1 1 -1 -1 -1\n" + // no number: no job of its own
		"3 9 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"4 12 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n"
	path := filepath.Join(t.TempDir(), "log.swf")
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd(t, "-predictors", "naive", path)
	if want := "\n1 jobs given by partial-execution lines only"; code != 0 || !strings.Contains(stdout, want) {
		t.Errorf("exit %d (%s); text lacks %q:\n%s", code, stderr, want, stdout)
	}
	code, stdout, stderr = runCmd(t, "-json", "-predictors", "naive", path)
	var r struct {
		PartialOnly int `json:"partial_only_jobs"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(stdout, "\n", 2)[0]), &r); code != 0 || err != nil || r.PartialOnly != 1 {
		t.Errorf("exit %d (%s), %v: partial_only_jobs %d, want 1:\n%s", code, stderr, err, r.PartialOnly, stdout)
	}
}
