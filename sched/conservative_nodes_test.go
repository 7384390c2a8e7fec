package sched_test

import (
	"context"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

func conservativeOn(t testing.TB, nodes []swf.Node, jobs []swf.Job) *sched.Result {
	t.Helper()
	p, _ := sched.LookupPreset("Conservative")
	c := p.New(0)
	c.Nodes = nodes
	res, err := sched.Run(context.Background(), c, jobs)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Check(); err != nil {
		t.Fatal(err)
	}
	if res.Refused != 0 {
		t.Fatalf("%d refused", res.Refused)
	}
	return res
}

func TestConservativeNodesExplore(t *testing.T) {
	jobs := tracetest.RanJobs(t, tracetest.KTH)
	const P = 100
	p, _ := sched.LookupPreset("Conservative")
	want, err := sched.Run(context.Background(), p.New(P), jobs)
	if err != nil {
		t.Fatal(err)
	}
	for _, nodes := range [][]swf.Node{{{Count: 1, Cores: P}}, {{Count: P / 4, Cores: 4}}, {{Count: P, Cores: 1}}} {
		got := conservativeOn(t, nodes, jobs)
		diff, first := 0, int64(-1)
		var wg, ww float64
		for k := range want.Records {
			g, w := &got.Records[k], &want.Records[k]
			wg += float64(g.Start - g.Job.Submit)
			ww += float64(w.Start - w.Job.Submit)
			if g.Start != w.Start || g.Backfilled != w.Backfilled || g.FirstReservation != w.FirstReservation {
				if first < 0 {
					first = w.Job.ID
					t.Logf("%+v: first diff job %d: nodes start %d bf %v res %d; pool %d %v %d", nodes, w.Job.ID, g.Start, g.Backfilled, g.FirstReservation, w.Start, w.Backfilled, w.FirstReservation)
				}
				diff++
			}
		}
		n := float64(len(want.Records))
		t.Logf("%+v: %d of %d differ; mean wait nodes %.0f pool %.0f", nodes, diff, len(want.Records), wg/n, ww/n)
	}
}
