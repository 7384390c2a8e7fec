package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
)

// qbets scores the waits of jobs, not those of a checkpointed job's
// partial executions (status 2, 3, 4, whose waits are requeues): it
// leaves them out and says so, as simulate and forecast do. It scored
// each as a job of the queue.
func TestPartialExecutionsNotScored(t *testing.T) {
	var log strings.Builder
	log.WriteString("; MaxProcs: 10\n")
	for i := 1; i <= 40; i++ { // a job, then a partial line of it with a long requeue wait
		fmt.Fprintf(&log, "%d %d 5 300 1 -1 -1 1 400 -1 1 1 1 1 1 -1 -1 -1\n", i, 100*i)
		fmt.Fprintf(&log, "%d %d 90000 100 1 -1 -1 1 400 -1 2 1 1 1 1 -1 -1 -1\n", i, 100*i)
	}
	var out, errs bytes.Buffer
	if code := run(context.Background(), []string{"-"}, strings.NewReader(log.String()), &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if !strings.Contains(out.String(), "40 partial execution") || !strings.Contains(out.String(), "| 1 | 40 |") {
		t.Errorf("want queue 1 of 40 jobs and the 40 partial lines counted:\n%s", out.String())
	}
}
