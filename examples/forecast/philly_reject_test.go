package main

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/swf/convert"
)

// A Philly job without attempts never ran: neither its run time nor its
// GPUs are known. With -nodes forecast rejects it under the reason that
// simulate gives (sched's: no run time, tested before no size), which
// sched is asked here on the same jobs and nodes; forecast said "no size"
// (its probe ran every job 0 s) while simulate said "no run time".
// simulate's TestPhillyNoAttemptReason pins the same reason.
func TestPhillyNoAttemptReason(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Open("../../swf/convert/testdata/gpu-philly.json")
	if err != nil {
		t.Fatal(err)
	}
	res, err := convert.GPUTrace(f, convert.Options{Location: time.UTC})
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	// Not this test's: a job that started and whose end is unknown (the
	// Pass job without end_time), which forecast replays (its wait is
	// known, and only waits are forecast) and simulate rejects.
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
