package sched

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// runsResult runs EASY with first fit on 16 nodes of 4 cores, jobs of
// cores alone (no demand: spread over as many nodes as it takes), so that
// the shares are runs of nodes, with KeepShares.
func runsResult(t *testing.T) *Result {
	t.Helper()
	var jobs []swf.Job
	for i := range int64(40) {
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.ReqTime, j.AllocProcs = i+1, i*5, 30+i%7*10, 100, 4*(1+i%5)
		jobs = append(jobs, j)
	}
	res, err := Run(context.Background(), Config{Nodes: []swf.Node{{Count: 16, Cores: 4}}, KeepShares: true}, jobs)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The Result keeps a job's shares as placed, a run of nodes as one share
// (they were cut into a share per node: 32 bytes per node a job held,
// 1.3 GB on CEA-Curie's 5,832 nodes under simulate -check), and Shares
// still lists them node by node. Check passes the schedule and still
// finds, on runs, a node overdrawn by a job moved onto another's time or
// by a run moved onto another job's nodes, a node held twice by one job,
// and a run past the last node.
func TestCheckRuns(t *testing.T) {
	res := runsResult(t)
	kept, nodes := 0, 0
	for k := range res.Records {
		kept += len(res.sharesOf(k))
		nodes += len(res.Shares(k))
		var cores int64
		for _, f := range res.Shares(k) {
			cores += f.Cores
		}
		if cores != res.Records[k].Size {
			t.Fatalf("job %d: Shares lists %d cores, its size is %d", res.Records[k].Job.ID, cores, res.Records[k].Size)
		}
	}
	if kept >= nodes {
		t.Fatalf("%d shares kept for %d nodes held: runs of nodes were cut", kept, nodes)
	}
	if err := res.Check(); err != nil {
		t.Fatalf("the schedule: %v", err)
	}

	// two jobs that ran at once on runs: k on nodes a, l on nodes b
	type pair struct{ k, l int }
	var p *pair
	for k := range res.Records {
		for l := range res.Records {
			rk, rl := &res.Records[k], &res.Records[l]
			if k != l && len(res.sharesOf(k)) == 1 && res.sharesOf(k)[0].more > 0 && len(res.sharesOf(l)) == 1 &&
				rk.Start < rl.End && rl.Start < rk.End && rl.Start > rk.Start {
				p = &pair{k, l}
			}
		}
	}
	if p == nil {
		t.Fatal("no two jobs at once, the first on a run: the workload tests nothing")
	}
	for _, c := range []struct {
		name   string
		mutate func(r *Result)
		want   string
	}{
		{"a run moved onto the nodes of a job running then", func(r *Result) {
			sh := &r.sharesOf(p.k)[0]
			sh.node = min(r.sharesOf(p.l)[0].node, 15-int32(sh.more))
		}, "overdrawn"},
		{"a job moved onto a run's time and nodes", func(r *Result) {
			sh := &r.sharesOf(p.l)[0]
			sh.node = r.sharesOf(p.k)[0].node + int32(r.sharesOf(p.k)[0].more)
			sh.more = 0
		}, "overdrawn"},
		{"a run that holds a node twice", func(r *Result) {
			// the run's second node given as a share of its own as well
			shs := append(slices.Clone(r.sharesOf(p.k)), r.sharesOf(p.k)[0].one(1))
			r.held[p.k].at, r.held[p.k].n = r.shares.add(shs), int32(len(shs))
		}, "twice"},
		{"a run past the last node, on the idle machine", func(r *Result) {
			rec, last := &r.Records[p.k], int64(0)
			for _, o := range r.Records {
				last = max(last, o.End)
			}
			rec.Start, rec.End = last+rec.Job.Submit, last+rec.Job.Submit+rec.RunTime
			r.sharesOf(p.k)[0].node = 15 // its first node the last one
		}, "node 16: no such node"},
	} {
		r := runsResult(t)
		c.mutate(r)
		if err := r.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
	}
}
