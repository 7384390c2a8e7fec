package sched

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// gpuRunsResult runs EASY with first fit on 4 nodes of 4 cores and a GPU
// each, jobs of cores alone one after another (each 8 cores: a run of
// nodes 0–1), with KeepShares.
func gpuRunsResult(t *testing.T) *Result {
	t.Helper()
	var jobs []swf.Job
	for i := range int64(3) {
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.ReqTime, j.AllocProcs = i+1, i*100, 50, 50, 8
		jobs = append(jobs, j)
	}
	res, err := Run(context.Background(), Config{Nodes: []swf.Node{{Count: 4, Cores: 4, GPUs: 1, GPUModel: "A"}}, KeepShares: true}, jobs)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Check gives back at a job's end what it took at its start, node by
// node: a run (see share) holding a GPU on each of its nodes, one job
// after another on the same nodes, is no violation. Its end gave back the
// run's cores and memory alone (machine.apply on a run), so the GPUs the
// start took (a share per node) stayed taken and the next job on them was
// reported overdrawn; a Result cut into a share per node (before runs were
// kept whole) passed.
func TestCheckRunEndGivesBack(t *testing.T) {
	res := gpuRunsResult(t)
	for k := range res.Records {
		shs := res.sharesOf(k)
		if len(shs) != 1 || shs[0].node != 0 || shs[0].more != 1 {
			t.Fatalf("job %d on %+v, want one run on nodes 0–1: the workload tests nothing", res.Records[k].Job.ID, shs)
		}
		if k > 0 && res.Records[k].Start < res.Records[k-1].End {
			t.Fatalf("job %d started before job %d ended: the workload tests nothing", res.Records[k].Job.ID, res.Records[k-1].Job.ID)
		}
		shs[0].gpus, shs[0].gpuPart = 1, 1000
	}
	if err := res.Check(); err != nil {
		t.Fatalf("jobs one after another, each with the nodes' GPUs: %v", err)
	}
	// the same, cut into a share per node, as the Result kept them before
	for k := range res.Records {
		shs := perNode(res.sharesOf(k))
		res.held[k].at, res.held[k].n = res.shares.add(shs), int32(len(shs))
	}
	if err := res.Check(); err != nil {
		t.Fatalf("cut per node: %v", err)
	}
}

// Hostile runs: runs of one job that overlap, a run whose nodes wrap past
// the largest int32, a run past the last node on the idle machine; each
// is an error, not a panic or a pass. And a job on many runs that is
// right passes, with the marks of one job never hiding another's node
// held twice (one mark array for every job: a stale mark must not read as
// a node already held, nor a fresh one be missed).
func TestCheckRunsHostile(t *testing.T) {
	for _, c := range []struct {
		name string
		shs  func(sh share) []share
		want string
	}{
		{"runs of one job that overlap", func(sh share) []share {
			a, b := sh, sh
			a.node, a.more, b.node, b.more = 0, 1, 1, 0
			return []share{a, b}
		}, "twice"},
		{"a run that wraps", func(sh share) []share {
			sh.node, sh.more = math.MaxInt32-1, 1
			return []share{sh}
		}, "no such node"},
		{"a run past the last node", func(sh share) []share {
			sh.node, sh.more = 3, 1
			return []share{sh}
		}, "node 4: no such node"},
		{"the same run twice", func(sh share) []share {
			return []share{sh, sh}
		}, "twice"},
	} {
		res := gpuRunsResult(t)
		k := 1
		shs := c.shs(res.sharesOf(k)[0])
		res.held[k].at, res.held[k].n = res.shares.add(shs), int32(len(shs))
		if err := res.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
		// the same on a job that ran 0 s (checked apart, on the empty machine)
		res = gpuRunsResult(t)
		res.Records[k].End, res.Records[k].RunTime = res.Records[k].Start, 0
		res.held[k].at, res.held[k].n = res.shares.add(shs), int32(len(shs))
		if err := res.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s, 0 s: got %v, want an error with %q", c.name, err, c.want)
		}
	}
	// jobs that ran 0 s, each on the nodes the one before held: no stale
	// mark reads as held twice, and the empty machine is whole again
	// after each
	res := gpuRunsResult(t)
	for k := range res.Records {
		res.Records[k].Start, res.Records[k].End, res.Records[k].RunTime = 200, 200, 0
	}
	if err := res.Check(); err != nil {
		t.Fatalf("jobs of 0 s on the same nodes: %v", err)
	}
	// ... but a node twice in the last one is still found
	last := len(res.Records) - 1
	shs := append(slices.Clone(res.sharesOf(last)), res.sharesOf(last)[0].one(1))
	res.held[last].at, res.held[last].n = res.shares.add(shs), int32(len(shs))
	if err := res.Check(); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("a node twice in the last job of 0 s: got %v", err)
	}
}
