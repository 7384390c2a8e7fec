package main

import (
	"context"
	"github.com/batchq/batchq/examples/internal/cli/clitest"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// A Philly job without attempts never ran: neither its run time nor its
// GPUs are known. With -nodes forecast rejects it under the reason that
// simulate gives (sched's: no run time, tested before no size), which
// sched is asked here on the same jobs and nodes; forecast said "no size"
// (its probe ran every job 0 s) while simulate said "no run time".
// simulate's TestPhillyNoAttemptReason pins the same reason.
func TestPhillyNoAttemptReason(t *testing.T) {
	dir := t.TempDir()
	res := clitest.PhillyJobs(t)
	// Not this test's: a job that started and whose end is unknown (the
	// Pass job without end_time), which forecast replays (its wait is
	// known, and only waits are forecast) and simulate rejects
	// (TestPhillyNoEndCounted).
	res.Jobs = slices.DeleteFunc(res.Jobs, func(j swf.Job) bool { return j.Wait >= 0 && j.RunTime < 0 })
	log := filepath.Join(dir, "philly.swf")
	var out strings.Builder
	if err := swf.WriteAll(&out, res.Header, res.Jobs); err != nil {
		t.Fatal(err)
	}
	nodesCSV := filepath.Join(dir, "nodes.csv")
	node := swf.Node{Name: "m8", Count: 4, Cores: 8, GPUs: 8}
	for p, s := range map[string]string{log: out.String(), nodesCSV: "kind,count,cores,memory,gpus\nm8,4,8,0,8\n"} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sim, err := sched.Run(context.Background(), sched.Config{Nodes: []swf.Node{node}}, res.Jobs)
	if err != nil {
		t.Fatal(err)
	}
	bySim := map[string]int{}
	for _, e := range sim.Rejected.Excluded {
		bySim[e.Reason.String()]++
	}
	if want := map[string]int{"no run time": 1}; !maps.Equal(bySim, want) {
		t.Fatalf("sched rejects %v, want %v (the job without attempts)", bySim, want)
	}
	rows := jsonRows(t, "-predictors", "naive", "-nodes", nodesCSV, log)
	got := map[string]int{}
	for k, v := range rows["naive"]["rejected"].(map[string]any) {
		got[k] = int(v.(float64))
	}
	if want := cli.ReasonKeys(bySim); !maps.Equal(got, want) {
		t.Errorf("-json rejected %v; simulate's (sched's) %v", got, want)
	}
	if code, text, errs := runCmd(t, "-predictors", "naive", "-nodes", nodesCSV, log); code != 0 || !strings.Contains(text, "rejected: "+cli.Reasons(bySim)) {
		t.Errorf("exit %d; report lacks %q:\n%s%s", code, "rejected: "+cli.Reasons(bySim), text, errs)
	}
}

// A Philly job that ran and has no end time (Pass without end_time:
// convert writes its wait, run time -1) is one simulate rejects as "no run
// time" and forecast replays (its wait is known, and only waits are
// forecast). forecast said nothing of it: once started it never ends in
// the replay and holds no processors in the simulation, unnoted. It now
// counts it under simulate's name, replayed_no_run_time in -json and a
// line of the text, so that on the same log and nodes the jobs simulate
// rejects as no run time are forecast's rejected no_run_time plus its
// replayed_no_run_time (sched, which simulate runs, is asked here).
func TestPhillyNoEndCounted(t *testing.T) {
	dir := t.TempDir()
	res := clitest.PhillyJobs(t)
	noEnd := 0
	for _, j := range res.Jobs {
		if j.Wait >= 0 && j.RunTime < 0 {
			noEnd++
		}
	}
	if noEnd != 1 {
		t.Fatalf("%d jobs with a wait and no run time in the test log, want 1 (the Pass job without end_time)", noEnd)
	}
	var out strings.Builder
	if err := swf.WriteAll(&out, res.Header, res.Jobs); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "philly.swf")
	nodesCSV := filepath.Join(dir, "nodes.csv")
	node := swf.Node{Name: "m8", Count: 4, Cores: 8, GPUs: 8}
	for p, s := range map[string]string{log: out.String(), nodesCSV: "kind,count,cores,memory,gpus\nm8,4,8,0,8\n"} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sim, err := sched.Run(context.Background(), sched.Config{Nodes: []swf.Node{node}}, res.Jobs)
	if err != nil {
		t.Fatal(err)
	}
	simNoRun := 0
	for _, e := range sim.Rejected.Excluded {
		if e.Reason.String() == "no run time" {
			simNoRun++
		}
	}
	for _, args := range [][]string{{"-nodes", nodesCSV}, {"-machine", "32"}} {
		args = append(append([]string{"-predictors", "naive"}, args...), log)
		m := jsonRows(t, args...)["naive"]
		replayed, _ := m["replayed_no_run_time"].(float64)
		if replayed != 1 {
			t.Errorf("%v: -json replayed_no_run_time %v, want 1 (the Pass job without end_time)", args[2:], m["replayed_no_run_time"])
		}
		if args[2] == "-nodes" {
			rejected, _ := m["rejected"].(map[string]any)["no_run_time"].(float64)
			if int(rejected+replayed) != simNoRun {
				t.Errorf("-nodes: rejected no_run_time %v + replayed_no_run_time %v, simulate (sched) rejects %d as no run time", rejected, replayed, simNoRun)
			}
		}
		if code, text, errs := runCmd(t, args...); code != 0 || !strings.Contains(text, "1 jobs without a run time (field 4 unknown; simulate rejects them, no run time)") {
			t.Errorf("%v: exit %d; the report does not count the job without a run time:\n%s%s", args[2:], code, text, errs)
		}
	}
}
