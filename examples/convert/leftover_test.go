package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf/convert"
)

// TestLeftoverReasons: the readers' fixes of the 2026-12-02 session are
// counted with their reason in the report, as text and as -json.
func TestLeftoverReasons(t *testing.T) {
	for _, c := range []struct {
		from, in, kind, reason string
		n                      int
	}{
		// A COMPLETED job whose Start is unknown: its start is End - Elapsed.
		{"sacct", "JobID|State|Submit|Start|End|ElapsedRaw|AllocCPUS\n1|COMPLETED|1704067200|Unknown|1704067800|500|2\n",
			"anomalies", "start from end - Elapsed", 1},
		// A D record before the E record, the Q and S records not in the log:
		// one job, cancelled while running (was "no submit time" and a job
		// "job id reused").
		{"pbs", "04/01/2024 10:50:00;D;7.srv;requestor=u@h\n04/01/2024 10:50:05;E;7.srv;user=u ctime=1711968000 " +
			"start=1711968300 end=1711968605 exec_host=n1/0 Exit_status=271\n", "anomalies", "cancelled while running", 1},
	} {
		out := filepath.Join(t.TempDir(), "o.swf")
		code, _, stderr := runCmd(t, c.in, "-from", c.from, "-", "-o", out)
		if want := fmt.Sprintf("  %6d  %s\n", c.n, c.reason); code != exitOK || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, no %q in\n%s", c.from, code, want, stderr)
		}
		code, stdout, _ := runCmd(t, c.in, "-from", c.from, "-", "-o", out, "-json")
		var rep convert.Report
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != exitOK {
			t.Fatalf("%s: exit %d, %v\n%s", c.from, code, err, stdout)
		}
		got := rep.Anomalies[c.reason]
		if c.kind == "skipped" {
			got = rep.Skipped[c.reason]
		}
		if got != c.n {
			t.Errorf("%s: -json %s %q = %d, want %d\n%s", c.from, c.kind, c.reason, got, c.n, stdout)
		}
	}
}
