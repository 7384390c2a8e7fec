// Package slurm simulates Slurm's own scheduling: multifactor priority
// (age, fair share with decay, classic and Fair Tree, job size, partition,
// QOS, association), the main scheduler's priority order per partition,
// and sched/backfill with its parameters, on a machine of package sched.
// It is configured from a site's slurm.conf (ParseConf) and fair-share
// tree (Config.ReadShares).
package slurm
