package tracetest

import (
	"testing"

	"github.com/batchq/batchq/swf"
)

// RanJobs reads a shared trace (skipping or failing tb like Path) and keeps
// the jobs that ran and did not fail, with a known submit time and wait:
// Hariharan et al.'s selection (their SDSC-SP2 count, 54,006, matches these
// 54,034 jobs).
func RanJobs(tb testing.TB, name string) []swf.Job {
	tb.Helper()
	_, jobs, err := swf.ReadFile(Path(tb, name))
	if err != nil {
		tb.Fatal(err)
	}
	var out []swf.Job
	for _, j := range jobs {
		if j.RunTime <= 0 || j.Status == 0 || j.Submit < 0 || j.Wait < 0 {
			continue
		}
		out = append(out, j)
	}
	return out
}
