package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// -json carries what reading left out of the logs beside the sections,
// as the other commands' -json does: the jobs left out by reason
// (rejected, summed; rejected_by_log) and, without -lenient too, the
// header lines not taken as written. Both were said only on standard
// error.
func TestLeftOutInJSON(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("; MaxProcs: 16\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "%d %d 0 600 2 -1 -1 2 1200 -1 1 1 1 1 1 -1 -1 -1\n", 1+i%7, 300*i)
		if i == 0 {
			b.WriteString("; MaxProcs: 64\n") // after the first job line: ignored
		}
	}
	b.WriteString("3001 0 0 -1 2 -1 -1 2 1200 -1 1 1 1 1 1 -1 -1 -1\n") // no run time
	dup := filepath.Join(dir, "dup.swf")
	if err := os.WriteFile(dup, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	a := clitest.WriteTrace(t, dir, "a.swf", 1500, 16)
	r := clitest.Exec(run, "", "-trace", dup+","+a, "-days", "9", "-step", "300", "-json")
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	var got struct {
		Rejected      map[string]int            `json:"rejected"`
		RejectedByLog map[string]map[string]int `json:"rejected_by_log"`
		Header        []string                  `json:"header_warnings"`
		Lines         *int                      `json:"malformed_lines_skipped"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"duplicate_id": 2993, "no_run_time": 1}
	if fmt.Sprint(got.Rejected) != fmt.Sprint(want) || fmt.Sprint(got.RejectedByLog) != fmt.Sprint(map[string]map[string]int{"dup.swf": want}) {
		t.Errorf("-json rejected %v, by log %v; want %v of dup.swf", got.Rejected, got.RejectedByLog, want)
	}
	if len(got.Header) != 1 || !strings.Contains(got.Header[0], "MaxProcs") || got.Lines == nil || *got.Lines != 0 {
		t.Errorf("-json header_warnings %q, malformed_lines_skipped %v; want the late MaxProcs, 0", got.Header, got.Lines)
	}
}
