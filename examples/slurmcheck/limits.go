package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/batchq/batchq/sched/slurm"
)

// noLimitSecs is the limit Slurm's backfill plans a job without one with
// when its partition has no MaxTime either: a year (YEAR_MINUTES).
const noLimitSecs = 365 * 24 * 3600

// limitOf is the limit, in seconds, the simulations plan job r with, as
// Slurm 22.05's backfill plans it (_attempt_backfill: MIN(time_limit,
// part MaxTime), or the partition's MaxTime for a job without a limit):
// its own, cut to its partition's MaxTime in the recorded slurm.conf when
// above it (cut); for a job sacct shows without one (realJob.NoLimit)
// its partition's MaxTime, a year when the partition has none
// (MaxTime=UNLIMITED, or no such partition). maxTimes is read from the
// conf at the first job.
//
// A job whose own limit lies above its partition's MaxTime runs only by
// its QOS's flag PartitionTimeLimit (or a limit an administrator set):
// without them Slurm refuses it at submission under EnforcePartLimits,
// and under the recordings' EnforcePartLimits=NO (the default) leaves it
// pending for ever (job_limits_check: WAIT_PART_TIME_LIMIT), which
// prepare refuses as not run to completion. Running, it keeps its own
// limit (select_nodes): Slurm's backfill plans its end at start + that
// limit and kills it there, where the simulations plan and kill it at
// the MaxTime. A run past the MaxTime is refused (cutRunsPast); the
// planned end of a cut job while it runs is a difference, not modelled.
func limitOf(r realJob, conf string, maxTimes *map[string]int64) (limit int64, cut bool, err error) {
	if *maxTimes == nil {
		cfg, _, err := slurm.ParseConf(strings.NewReader(conf))
		if err != nil {
			return 0, false, fmt.Errorf("slurm_conf, for the partitions' MaxTime, which Slurm's backfill plans the jobs' limits with: %w", err)
		}
		*maxTimes = map[string]int64{}
		for _, p := range cfg.Partitions {
			(*maxTimes)[p.Name] = p.MaxTime
		}
	}
	t := (*maxTimes)[r.Partition]
	if r.NoLimit == "" {
		if t > 0 && r.Limit > t {
			return t, true, nil
		}
		return r.Limit, false, nil
	}
	if t > 0 {
		return t, false, nil
	}
	return noLimitSecs, false, nil
}

// cutRunsPast refuses a job cut to its partition's MaxTime (limitOf)
// that ran past the MaxTime plus OverTimeLimit: the simulations kill a
// job at the first limit check at or after its limit plus OverTimeLimit
// (sched.Config.KillAtEstimate and KillCheck), so they would end it
// there, where Slurm, which kills it at its own limit
// (select_nodes keeps a limit above MaxTime for a QOS of flag
// PartitionTimeLimit), let it run on: a run silently shortened.
func cutRunsPast(r realJob, run, own int64, conf string) error {
	cfg, _, err := slurm.ParseConf(strings.NewReader(conf))
	if err != nil {
		return err // limitOf read it already
	}
	if run <= r.Limit+cfg.OverTimeLimit {
		return nil
	}
	return fmt.Errorf("ran %d s, past its partition %s's MaxTime of %d s (plus OverTimeLimit %d s) to which its own limit of %d s is cut, as Slurm's backfill plans it; the simulations would kill it there, where Slurm let it run to its own limit: not modelled", run, r.Partition, r.Limit, cfg.OverTimeLimit, own)
}

// cutLimitText says how many jobs' limits were above their partition's
// MaxTime and were planned with it; "" when none.
func cutLimitText(n int) string {
	if n == 0 {
		return ""
	}
	jobs := "jobs"
	if n == 1 {
		jobs = "job"
	}
	return fmt.Sprintf("%d %s with a time limit above its partition's MaxTime, planned with that MaxTime as Slurm's backfill plans it (MIN(limit, MaxTime))", n, jobs)
}

// noLimitText says how many jobs sacct showed without a time limit, by
// form, and what the simulations planned them with; "" when none.
func noLimitText(counts map[string]int) string {
	if len(counts) == 0 {
		return ""
	}
	n := 0
	var forms []string
	for _, form := range slices.Sorted(maps.Keys(counts)) {
		n += counts[form]
		forms = append(forms, fmt.Sprintf("%d %s", counts[form], form))
	}
	jobs := "jobs"
	if n == 1 {
		jobs = "job"
	}
	return fmt.Sprintf("%d %s without a time limit in sacct's TimelimitRaw (%s), planned with their partition's MaxTime, or a year where it has none, as Slurm's backfill plans them",
		n, jobs, strings.Join(forms, ", "))
}
