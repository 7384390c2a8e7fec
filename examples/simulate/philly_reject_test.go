package main

import (
	"github.com/batchq/batchq/examples/internal/cli/clitest"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

// A Philly job without attempts never ran: neither its run time nor its
// GPUs are known. simulate rejects it as "no run time" (sanitize.Check's
// first reason, before no size), the reason forecast -nodes gives it too:
// forecast said "no size" while simulate said "no run time".
// forecast's TestPhillyNoAttemptReason pins the same reason.
func TestPhillyNoAttemptReason(t *testing.T) {
	dir := t.TempDir()
	res := clitest.PhillyJobs(t)
	var out strings.Builder
	if err := swf.WriteAll(&out, res.Header, res.Jobs); err != nil {
		t.Fatal(err)
	}
	log := writeTrace(t, dir, "philly.swf", out.String())
	nodes := writeTrace(t, dir, "nodes.csv", "kind,count,cores,memory,gpus\nm8,4,8,0,8\n")
	k := slices.Index(res.IDs, "application_1506638472019_20003") // (no attempts)
	if k < 0 {
		t.Fatal("no job application_1506638472019_20003")
	}
	if r := sanitize.Check(&res.Jobs[k], 32); r != sanitize.NoRunTime {
		t.Fatalf("sanitize.Check: %v, want no run time", r)
	}
	m := runJSON(t, "-nodes", nodes, log)
	rej := m["rejected"].(map[string]any)
	if len(rej) != 1 || rej["no_run_time"] != 2.0 {
		t.Errorf("-json rejected %v, want no_run_time 2 (the job without attempts, the Pass job without end_time)", rej)
	}
}
