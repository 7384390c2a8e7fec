package main

import (
	"strings"
	"testing"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

// A log shorter than the flurry to inject is an error that says so and
// names the log and the shape, not flurrytest's "synthetic flurry window
// [-29453, +1814400], want ≥ 0".
func TestInjectIntoShortLog(t *testing.T) {
	var jobs []swf.Job
	for i := range 10 {
		jobs = append(jobs, swf.Job{ID: int64(i + 1), Submit: int64(1800 * i), Wait: 0, RunTime: 600, AllocProcs: 1,
			ReqProcs: 1, ReqTime: 900, Status: 1, User: 1, Group: 1, Executable: 1, Queue: 1, Partition: -1, PrecedingJob: -1, ThinkTime: -1,
			AvgCPUTime: -1, UsedMemory: -1, ReqMemory: -1})
	}
	_, err := injectLog("short", jobs, []shape{flurry375}, sanitize.FlurryConfig{})
	if err == nil || !strings.Contains(err.Error(), "short, 375 jobs/10 h: the log spans 0.2 days, less than the flurry's 0.4") {
		t.Errorf("got %v", err)
	}
}
