package sanitize_test

import (
	"testing"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

// A line of status 2, 3 or 4 is a partial execution of a job whose
// summary line carries the whole run: not a job; the statuses of whole
// jobs (0, 1, 5, unknown, and others a log may use) are sane.
func TestCheckPartialExecution(t *testing.T) {
	for st := swf.Status(-4); st <= 7; st++ {
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.AllocProcs, j.ReqTime, j.Status = 1, 0, 100, 4, 200, st
		want := sanitize.SaneJob
		if st >= 2 && st <= 4 {
			want = sanitize.PartialExecution
		}
		if got := sanitize.Check(&j, 16); got != want {
			t.Errorf("status %d: %v, want %v", st, got, want)
		}
	}
	if s := sanitize.PartialExecution.String(); s != "partial execution" {
		t.Errorf("name %q", s)
	}
}
