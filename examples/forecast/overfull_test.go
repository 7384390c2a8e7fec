package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A question asked while the log's running jobs hold more than the
// machine (jobs 1 and 2, 12 processors on 8, when job 3 arrives) is
// counted in the text and in -json: the forecast's simulation grew the
// pool to hold them (sched/forecast.Online.Overfull), a rule that changes
// what it simulates. Job 2's question (6 running) is
// not counted; with job 2 at 2 processors nothing is.
func TestOverfullCounted(t *testing.T) {
	for _, tc := range []struct {
		size2 string
		want  int
	}{{"6", 1}, {"2", 0}} {
		log := "; MaxProcs: 8\n" +
			"1 0 0 1000 6 -1 -1 6 2000 -1 1 1 1 1 1 -1 -1 -1\n" +
			"2 10 0 1000 " + tc.size2 + " -1 -1 " + tc.size2 + " 2000 -1 1 2 1 1 1 -1 -1 -1\n" +
			"3 20 500 100 2 -1 -1 2 200 -1 1 3 1 1 1 -1 -1 -1\n"
		path := filepath.Join(t.TempDir(), "log.swf")
		if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runCmd(t, "-json", "-predictors", "naive,forecast,estimates", path)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
			var r struct {
				Over int `json:"questions_over_machine"`
			}
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				t.Fatal(err)
			}
			if r.Over != tc.want {
				t.Errorf("job 2 of %s processors: %s: questions_over_machine %d, want %d", tc.size2, l, r.Over, tc.want)
			}
		}
		code, stdout, stderr = runCmd(t, "-predictors", "naive,forecast", path)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		said := strings.Contains(stdout, "1 questions found the log's running jobs holding more than the machine's 8 processors")
		if said != (tc.want == 1) {
			t.Errorf("job 2 of %s processors: the text says the count: %v, want %v:\n%s", tc.size2, said, tc.want == 1, stdout)
		}
	}
}
