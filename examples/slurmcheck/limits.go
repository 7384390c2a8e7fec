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
// above it (cut: a job a QOS of flag PartitionTimeLimit let in past the
// partition's MaxTime, or one whose partition's MaxTime was lowered after
// its submission, runs to its own limit but is planned with MaxTime);
// for a job sacct shows without one (realJob.NoLimit) its partition's
// MaxTime, a year when the partition has none (MaxTime=UNLIMITED, or no
// such partition). maxTimes is read from the conf at the first job.
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
