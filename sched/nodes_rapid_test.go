package sched_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// nodeKinds draws a small machine: 1–4 kinds of 1–6 nodes, some with
// GPUs of one of two models, some with a named resource.
func nodeKinds(t *rapid.T) []swf.Node {
	k := rapid.IntRange(1, 4).Draw(t, "kinds")
	out := make([]swf.Node, k)
	for i := range out {
		n := swf.Node{Name: fmt.Sprint("k", i), Count: rapid.Int64Range(1, 6).Draw(t, "count"),
			Cores: rapid.Int64Range(1, 16).Draw(t, "cores"), Memory: rapid.Int64Range(0, 64).Draw(t, "mem")}
		if rapid.Bool().Draw(t, "gpu") {
			n.GPUs = rapid.Int64Range(1, 4).Draw(t, "gpus")
			n.GPUModel = rapid.SampledFrom([]string{"A", "B"}).Draw(t, "model")
		}
		if rapid.Bool().Draw(t, "named") {
			n.Named = map[string]int64{"lic": rapid.Int64Range(0, 3).Draw(t, "lic")}
		}
		out[i] = n
	}
	return out
}

// nodeJobs draws jobs with every shape of demand: none (spread), whole
// GPUs, a GPU share, a model constraint, memory, a named resource, whole
// nodes, several nodes; some fit no node.
func nodeJobs(t *rapid.T) []swf.Job {
	n := rapid.IntRange(1, 40).Draw(t, "jobs")
	jobs := make([]swf.Job, n)
	submit := int64(0)
	for i := range jobs {
		j := swf.NewJob()
		submit += rapid.Int64Range(0, 50).Draw(t, "gap")
		j.ID, j.Submit = int64(i+1), submit
		j.RunTime = rapid.Int64Range(0, 300).Draw(t, "run")
		j.ReqTime = j.RunTime + rapid.Int64Range(0, 300).Draw(t, "slack")
		j.AllocProcs = rapid.Int64Range(1, 24).Draw(t, "size")
		if rapid.IntRange(0, 3).Draw(t, "shape") > 0 {
			d := &swf.Demand{Nodes: rapid.Int64Range(1, 3).Draw(t, "nodes"), Cores: rapid.Int64Range(0, 8).Draw(t, "dcores"),
				Memory: rapid.Int64Range(0, 40).Draw(t, "dmem"), Exclusive: rapid.IntRange(0, 5).Draw(t, "excl") == 0}
			switch rapid.IntRange(0, 3).Draw(t, "gpu") {
			case 1:
				d.GPUs = 1000 * rapid.Int64Range(1, 3).Draw(t, "whole")
			case 2:
				d.GPUs = rapid.Int64Range(1, 999).Draw(t, "share")
			}
			if d.GPUs > 0 && rapid.Bool().Draw(t, "constrained") {
				d.GPUModels = []string{rapid.SampledFrom([]string{"A", "B", "C"}).Draw(t, "want")}
			}
			if rapid.IntRange(0, 4).Draw(t, "lic") == 0 {
				d.Named = map[string]int64{"lic": 1}
			}
			j.Demand = d
		}
		jobs[i] = j
	}
	return jobs
}

// Every preset and both placements on random machines and
// demands: the schedule passes Result.Check (no node overdrawn, every
// demand met), nothing stalls, every sane job is run or rejected with a
// reason, and the same input gives the same schedule.
func TestNodesProperties(t *testing.T) {
	presets := sched.Presets()
	rapid.Check(t, func(t *rapid.T) {
		kinds, jobs := nodeKinds(t), nodeJobs(t)
		p := rapid.SampledFrom(presets).Draw(t, "preset")
		cfg := p.New(0)
		cfg.Nodes = kinds
		if rapid.Bool().Draw(t, "best") {
			cfg.Placement = sched.BestFit
		}
		run := func() *sched.Result {
			c := p.New(0) // a fresh predictor each run
			c.Nodes, c.Placement, c.KeepShares = cfg.Nodes, cfg.Placement, true
			res, err := sched.Run(context.Background(), c, jobs)
			if err != nil {
				t.Fatalf("%s: %v", p.Name, err)
			}
			return res
		}
		res := run()
		if err := res.Check(); err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		if got := len(res.Records) + len(res.Rejected.Excluded); got != len(jobs) {
			t.Fatalf("%d jobs, %d records + %d rejected", len(jobs), len(res.Records), len(res.Rejected.Excluded))
		}
		rejected := 0
		for _, n := range res.NoNode {
			rejected += n
		}
		if n := res.Rejected.Count(sanitize.FitsNoNode); rejected != n {
			t.Fatalf("NoNode counts %d, %d rejected as fitting no node (%v)", rejected, n, res.NoNode)
		}
		for _, r := range res.Records {
			if r.Start < 0 || r.End < 0 {
				t.Fatalf("job %d never ran", r.Job.ID)
			}
		}
		again := run()
		if !reflect.DeepEqual(res.Summary, again.Summary) || !reflect.DeepEqual(res.Records, again.Records) {
			t.Fatal("two runs of the same input differ")
		}
	})
}

// Spread jobs on nodes of any width are one pool with ShadowTies, on
// random workloads too.
func TestNodesSpreadEqualsPoolRandom(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		jobs := nodeJobs(t)
		for i := range jobs {
			jobs[i].Demand = nil
		}
		width := rapid.Int64Range(1, 8).Draw(t, "width")
		count := rapid.Int64Range(3, 8).Draw(t, "count")
		p := rapid.SampledFrom(sched.Presets()).Draw(t, "preset")
		if p.Name == "Conservative" {
			return
		}
		pool := p.New(width * count)
		pool.ShadowTies = true
		want, err := sched.Run(context.Background(), pool, jobs)
		if err != nil {
			t.Fatal(err)
		}
		nodes := p.New(0)
		nodes.Nodes = []swf.Node{{Count: count, Cores: width}}
		got, err := sched.Run(context.Background(), nodes, jobs)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Records) != len(want.Records) {
			t.Fatalf("%d records, pool %d", len(got.Records), len(want.Records))
		}
		for k := range want.Records {
			g, w := got.Records[k], want.Records[k]
			if g.Start != w.Start || g.Backfilled != w.Backfilled || g.FirstReservation != w.FirstReservation {
				t.Fatalf("%s: job %d: nodes %d/%v/%d, pool %d/%v/%d", p.Name, w.Job.ID, g.Start, g.Backfilled, g.FirstReservation, w.Start, w.Backfilled, w.FirstReservation)
			}
		}
	})
}
