package main

import (
	"context"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// fig35 is the thesis's Figure 3.5 on a 10-processor machine, in units of
// 100 s: J1 and J2 run, J3 needs the whole machine, and every estimate is
// twice the run time. J3's real shadow starts at 6; backfilling J4 at 4,
// J5 at 6 and J6 at 8 pushes it to 8, 9 and 10 (three thieves), and J3
// starts at 10: a stall of 4.
func fig35(estimate func(run int64) int64) []swf.Job {
	const u = 100
	spec := []struct{ size, run int64 }{{5, 6}, {5, 4}, {10, 2}, {5, 4}, {5, 3}, {5, 2}}
	jobs := make([]swf.Job, len(spec))
	for i, s := range spec {
		jobs[i] = swf.Job{ID: int64(i + 1), Submit: 0, Wait: -1, RunTime: s.run * u, AllocProcs: s.size, ReqProcs: s.size,
			ReqTime: estimate(s.run) * u, AvgCPUTime: -1, UsedMemory: -1, ReqMemory: -1, Status: 1, User: 1, Group: 1,
			Executable: -1, Queue: -1, Partition: -1, PrecedingJob: -1, ThinkTime: -1}
	}
	return jobs
}

func TestHeelToeFig35(t *testing.T) {
	for _, c := range []struct {
		name     string
		estimate func(int64) int64
		want     HeelToe
	}{
		{"estimates doubled", func(r int64) int64 { return 2 * r }, HeelToe{Heads: 1, Stalled: 1, WildPushes: 3, StallSeconds: 400}},
		// With exact estimates no backfill can push a real shadow (the
		// thesis: no wild backfilling at f = 0): J6 backfills mildly at 4
		// (it ends at 6, J3's shadow), J3 starts at 6 and J4 becomes the
		// second head until 8.
		{"exact estimates", func(r int64) int64 { return r }, HeelToe{Heads: 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := newHeelToeObserver(10)
			res, err := runObserved(context.Background(), sched.EASY(10), fig35(c.estimate), o)
			if err != nil {
				t.Fatal(err)
			}
			if o.m != c.want {
				t.Errorf("got %+v, want %+v", o.m, c.want)
			}
			if c.want.Stalled > 0 {
				for _, r := range res.Records {
					if r.Job.ID == 3 && r.Start != 1000 {
						t.Errorf("J3 starts at %d, want 1000", r.Start)
					}
				}
			}
		})
	}
}
