package cli

import (
	"math"
	"testing"

	"github.com/batchq/batchq/internal/jobid"
	"github.com/batchq/batchq/swf"
)

// The agent's first number is above every real and every made-up number
// of the loaded jobs (small while the log's are, all real), and never wraps.
func TestAgentFirstID(t *testing.T) {
	ids := func(ns ...int64) []swf.Job {
		jobs := make([]swf.Job, len(ns))
		for i, n := range ns {
			jobs[i].ID = n
		}
		return jobs
	}
	for _, c := range []struct {
		jobs []swf.Job
		want int64
	}{
		{nil, 1},
		{ids(3, 9, 4), 10},
		{ids(-1, -1, -1), jobid.MadeUp(3) + 1}, // (after the log's jobs, as the same log numbered has them)
		{ids(-1, 5, 0), jobid.MadeUp(3) + 1},
		{ids(jobid.MadeUp(1), -1, 0), jobid.MadeUp(3) + 1}, // (B+1 + 1 is line 2's made-up number)
		{ids(jobid.MadeUp(7), -1), jobid.MadeUp(7) + 1},
	} {
		if got, err := AgentFirstID(c.jobs); err != nil || got != c.want {
			t.Errorf("%v: %d, %v; want %d", c.jobs, got, err, c.want)
		}
	}
	if got, err := AgentFirstID(ids(1, math.MaxInt64)); err == nil {
		t.Errorf("a job 2^63 − 1: first ID %d, want an error", got)
	}
}
