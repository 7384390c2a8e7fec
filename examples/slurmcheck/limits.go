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

// limitOf is the limit, in seconds, the simulations plan job r with: its
// own, or for a job sacct shows without one (realJob.NoLimit) what
// Slurm's backfill plans it with: its partition's MaxTime in the recorded
// slurm.conf, a year when the partition has none (MaxTime=UNLIMITED, or
// no such partition). maxTimes is read from the conf at the first such
// job.
func limitOf(r realJob, conf string, maxTimes *map[string]int64) (int64, error) {
	if r.NoLimit == "" {
		return r.Limit, nil
	}
	if *maxTimes == nil {
		cfg, _, err := slurm.ParseConf(strings.NewReader(conf))
		if err != nil {
			return 0, fmt.Errorf("slurm_conf, for the partitions' MaxTime of the jobs without a time limit: %w", err)
		}
		*maxTimes = map[string]int64{}
		for _, p := range cfg.Partitions {
			(*maxTimes)[p.Name] = p.MaxTime
		}
	}
	if t := (*maxTimes)[r.Partition]; t > 0 {
		return t, nil
	}
	return noLimitSecs, nil
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
