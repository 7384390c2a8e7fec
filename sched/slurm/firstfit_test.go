package slurm

import (
	"cmp"
	"context"
	"slices"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// chooseOnly is a Placement with Choose and Name only: its jobs are
// never passed to sched's first fit (no FirstFit method).
type chooseOnly struct{ p sched.Placement }

func (c chooseOnly) Choose(j *sched.Job, fits []sched.NodeFree) int { return c.p.Choose(j, fits) }
func (c chooseOnly) Name() string                                   { return c.p.Name() }

// TestFirstFitSameSchedule: consTres.FirstFit, which hands the jobs on
// several nodes (or spread) to sched's first fit instead of a Choose a
// share, places them where Choose would, with and without NamedNodes
// (nodePlace.FirstFit): the same starts and the same shares, on a
// machine of 24 nodes with one-node, several-node and spread jobs.
func TestFirstFitSameSchedule(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 60).Draw(rt, "jobs")
		jobs := make([]swf.Job, n)
		for i := range jobs {
			j := swf.NewJob()
			cores := rapid.Int64Range(1, 4).Draw(rt, "cores")
			j.ID, j.Submit, j.User = int64(i+1), rapid.Int64Range(0, 600).Draw(rt, "submit"), rapid.Int64Range(1, 3).Draw(rt, "user")
			j.RunTime = rapid.Int64Range(1, 400).Draw(rt, "run")
			j.ReqTime = j.RunTime + rapid.Int64Range(0, 300).Draw(rt, "slack")
			switch nodes := rapid.IntRange(0, 6).Draw(rt, "nodes"); nodes {
			case 0: // spread over nodes
				j.AllocProcs = rapid.Int64Range(1, 40).Draw(rt, "procs")
			default:
				j.AllocProcs = int64(nodes) * cores
				j.Demand = &swf.Demand{Nodes: int64(nodes), Cores: cores}
			}
			j.ReqProcs = j.AllocProcs
			jobs[i] = j
		}
		slices.SortStableFunc(jobs, func(a, b swf.Job) int { return cmp.Compare(a.Submit, b.Submit) })
		for _, named := range []bool{false, true} {
			var res [2]*sched.Result
			for k, pl := range []sched.Placement{nil, chooseOnly{consTres{}}} {
				p, err := New(Config{NamedNodes: named, WeightAge: 1000, BackfillInterval: 7}, sched.Config{Nodes: []swf.Node{{Name: "n", Count: 24, Cores: 4}}, Placement: pl, KeepShares: true})
				if err != nil {
					rt.Fatal(err)
				}
				if res[k], err = p.Run(context.Background(), jobs); err != nil {
					rt.Fatal(err)
				}
			}
			for i := range res[0].Records {
				a, b := res[0].Records[i], res[1].Records[i]
				if a.Start != b.Start || !slices.Equal(res[0].Shares(i), res[1].Shares(i)) {
					rt.Fatalf("named %v: job %d starts at %d on %v by first fit, at %d on %v by Choose", named, a.Job.ID, a.Start, res[0].Shares(i), b.Start, res[1].Shares(i))
				}
			}
		}
	})
}
