package main

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// Every job that -nodes rejects is counted under the reason sched gives
// it on the nodes (simulate's): without a submit time before without a
// run time before no size or fits no node, whichever the probe (which
// knows both times) found. Here every job sched rejects is one the probe
// rejects too, so the counts are sched's exactly.
func TestRejectOnNodesReasons(t *testing.T) {
	var jobs []swf.Job
	add := func(submit, run, procs int64, d *swf.Demand) {
		j := swf.NewJob()
		j.ID, j.Submit, j.Wait, j.RunTime, j.ReqTime, j.Status = int64(len(jobs)+1), submit, 10, run, 600, 1
		j.AllocProcs, j.ReqProcs, j.Demand = procs, procs, d
		jobs = append(jobs, j)
	}
	for i := range int64(40) {
		add(100*i, 300, 1+i%4, nil)
	}
	big := &swf.Demand{Nodes: 1, Cores: 9}
	add(-1, 300, -1, nil)   // no submit (and no size)
	add(4100, -1, 4, big)   // no run time (and fits no node)
	add(4200, -1, -1, nil)  // no run time (and no size): a Philly job without attempts
	add(4300, 300, 4, big)  // fits no node
	add(4400, 300, -1, nil) // no size
	add(-1, -1, 4, big)     // no submit (no run time, fits no node)
	nodes := []swf.Node{{Name: "c8", Count: 2, Cores: 8}}
	sim, err := sched.Run(context.Background(), sched.Config{Nodes: nodes}, jobs)
	if err != nil {
		t.Fatal(err)
	}
	bySim := map[string]int{}
	for _, e := range sim.Rejected.Excluded {
		bySim[e.Reason.String()]++
	}
	want := map[string]int{"no submit time": 2, "no run time": 2, "fits no node": 1, "no size": 1}
	if !maps.Equal(bySim, want) {
		t.Fatalf("sched rejects %v, want %v", bySim, want)
	}
	dir := t.TempDir()
	var out strings.Builder
	if err := swf.WriteAll(&out, &swf.Header{}, jobs); err != nil {
		t.Fatal(err)
	}
	log, nodesCSV := filepath.Join(dir, "log.swf"), filepath.Join(dir, "nodes.csv")
	for p, s := range map[string]string{log: out.String(), nodesCSV: "kind,count,cores,memory,gpus\nc8,2,8,0,0\n"} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rows := jsonRows(t, "-predictors", "naive", "-nodes", nodesCSV, log)
	got := map[string]int{}
	for k, v := range rows["naive"]["rejected"].(map[string]any) {
		got[k] = int(v.(float64))
	}
	if w := cli.ReasonKeys(bySim); !maps.Equal(got, w) {
		t.Errorf("-json rejected %v; sched's (simulate's) %v", got, w)
	}
}
