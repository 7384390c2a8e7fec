package slurm_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/slurm"
	"github.com/batchq/batchq/swf"
)

// TestKillCheck: Run kills a job at slurmctld's first limit check (every
// 30 s from time 0 by default) at or after its limit plus OverTimeLimit;
// a negative KillCheck kills at the limit at once. KillWait only moves
// backfill's planned end of an overdue job (TestRunningEndsOrder), never
// the job's end: sacct reports the check's time.
func TestKillCheck(t *testing.T) {
	// Job 1 runs 1000 s with a 100 s limit; job 2 ends on its own 5 s
	// past its limit, before the check.
	jobs := []swf.Job{mkJob(1, 0, 1, 1, 1000, 100), mkJob(2, 0, 1, 1, 105, 100)}
	for _, tc := range []struct {
		site  slurm.Config
		check int64 // the kill's grid (1: at the limit at once)
	}{
		{slurm.Config{}, 30},
		{slurm.Config{KillWait: 600}, 30},
		{slurm.Config{KillWait: -1}, 30},
		{slurm.Config{KillCheck: 7}, 7},
		{slurm.Config{KillCheck: -1}, 1},
		{slurm.Config{OverTimeLimit: 60}, 30},
	} {
		res, _ := run(t, tc.site, sched.Config{MachineSize: 2}, jobs)
		for i, r := range res.Records {
			kill := r.Start + 100 + tc.site.OverTimeLimit
			kill = (kill + tc.check - 1) / tc.check * tc.check
			if end := r.Start + jobs[i].RunTime; end <= kill {
				kill = -1 // it ends on its own
			}
			if r.Killed != (kill >= 0) || kill >= 0 && r.End != kill || kill < 0 && r.RunTime != jobs[i].RunTime {
				t.Errorf("%+v: job %d started %d, ended %d (killed %v), want a kill at %d (-1: none)", tc.site, i+1, r.Start, r.End, r.Killed, kill)
			}
		}
	}
	for _, bad := range []slurm.Config{{KillWait: -2}, {KillCheck: 1<<40 + 1}, {KillWait: 1<<40 + 1}} {
		if bad.Validate() == nil {
			t.Errorf("%+v validated", bad)
		}
	}
}

// TestParseKillWait: KillWait is read in seconds (0 is -1, Slurm's 0; no
// key is 0, Slurm's 30 s) and no longer listed as ignored.
func TestParseKillWait(t *testing.T) {
	for conf, want := range map[string]int64{"": 0, "KillWait=45\n": 45, "killwait=0\n": -1, "KillWait=010\n": 8} {
		c, left, err := slurm.ParseConf(strings.NewReader(conf))
		if err != nil || c.KillWait != want || slices.ContainsFunc(left, func(s string) bool { return strings.Contains(s, "KillWait") }) {
			t.Errorf("%q: KillWait %d, left out %q, error %v; want %d", conf, c.KillWait, left, err, want)
		}
	}
	if _, _, err := slurm.ParseConf(strings.NewReader("KillWait=-5\n")); err == nil {
		t.Error("KillWait=-5 read")
	}
}
