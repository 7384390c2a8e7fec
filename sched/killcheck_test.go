package sched_test

import (
	"context"
	"slices"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// KillCheck kills at the first check (a multiple of 30 s here) at or
// after start + estimate (P = 4, no job waits): job 1 (start 0, e = 100,
// logged 1000 s) is killed at the check at 120; job 2 (start 5, e = 100)
// runs past its estimate (105) but ends on its own at 115, before the
// check, and is not killed; job 3 (start 20, e = 70) reaches its estimate
// exactly on the check at 90 and is killed there. Without KillCheck all
// three are killed at their estimates.
func TestKillCheck(t *testing.T) {
	jobs := []swf.Job{job(1, 0, 1000, 1, 100), job(2, 5, 110, 1, 100), job(3, 20, 500, 1, 70)}
	type end struct {
		run    int64
		killed bool
	}
	for _, tc := range []struct {
		check int64
		want  []end
	}{
		{0, []end{{100, true}, {100, true}, {70, true}}},
		{30, []end{{120, true}, {110, false}, {70, true}}},
		{7, []end{{105, true}, {100, true}, {71, true}}}, // checks at 105, 91

	} {
		cfg := sched.EASY(4)
		cfg.KillAtEstimate = true
		cfg.KillCheck = tc.check
		res := check(t, "kill check", cfg, jobs, want{1: 0, 2: 5, 3: 20})
		for i, w := range tc.want {
			r := res.Records[i]
			if r.RunTime != w.run || r.Killed != w.killed || r.End != r.Start+w.run {
				t.Errorf("KillCheck %d: job %d ran %d to %d (killed %v), want %d (killed %v)", tc.check, i+1, r.RunTime, r.End, r.Killed, w.run, w.killed)
			}
		}
		killed := 0
		for _, w := range tc.want {
			if w.killed {
				killed++
			}
		}
		if res.Summary.Killed != killed {
			t.Errorf("KillCheck %d: %d killed, want %d", tc.check, res.Summary.Killed, killed)
		}
	}
	for _, bad := range []int64{-1, 1<<40 + 1} {
		cfg := sched.EASY(4)
		cfg.KillCheck = bad
		if cfg.Validate() == nil {
			t.Errorf("KillCheck %d validated", bad)
		}
	}
}

// A job killed at the check after its estimate ran past twice a short
// estimate (10 s, killed at the 30 s check): the kill ended it, so it is
// not counted in Summary.Overran (reports said "consider -kill" of a run
// with -kill), on the records' path and SummaryOnly's alike. A job that
// overran without a kill is still counted.
func TestKillCheckNotOverran(t *testing.T) {
	jobs := []swf.Job{job(1, 0, 1000, 1, 10), job(2, 0, 500, 1, 100)}
	for _, only := range []bool{false, true} {
		cfg := sched.EASY(4)
		cfg.KillAtEstimate, cfg.KillCheck, cfg.SummaryOnly = true, 30, only
		res, err := sched.Run(context.Background(), cfg, slices.Clone(jobs))
		if err != nil {
			t.Fatal(err)
		}
		if s := res.Summary; s.Killed != 2 || s.Overran != 0 {
			t.Errorf("SummaryOnly %v: killed %d, overran %d; want 2 and 0", only, s.Killed, s.Overran)
		}
		cfg.KillAtEstimate, cfg.KillCheck = false, 0
		if res, err = sched.Run(context.Background(), cfg, slices.Clone(jobs)); err != nil {
			t.Fatal(err)
		}
		if s := res.Summary; s.Killed != 0 || s.Overran != 2 {
			t.Errorf("SummaryOnly %v, no kill: killed %d, overran %d; want 0 and 2", only, s.Killed, s.Overran)
		}
	}
}
