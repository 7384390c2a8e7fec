package sched_test

import (
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
