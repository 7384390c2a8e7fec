// Package slurm simulates Slurm 22.05's own scheduling on a machine of
// package sched: multifactor priority (age, fair share with decay,
// classic and Fair Tree, job size, partition, QOS, association), the
// main scheduler's priority order per partition, and sched/backfill with
// its parameters. It is configured from a site's slurm.conf (ParseConf)
// and fair-share tree (Config.ReadShares).
//
//	site, ignored, err := slurm.ParseConf(f) // ignored: keys the model leaves out; or a Config by hand
//	p, err := slurm.New(site, sched.Config{MachineSize: 512})
//	res, err := p.Run(ctx, jobs)             // a sched.Result
//
// A job's user, account, partition and QOS are its SWF User, Group, Queue
// and Partition fields, named through Config's *Names maps. One pool of P
// processors is P nodes of one CPU; sched.Config.Nodes gives Slurm's
// nodes. Each Config field says what the model does with its slurm.conf
// key, as Slurm's source does; README.md walks through the threads, their
// timing and costs. Jobs are killed at slurmctld's first limit check (every
// 30 s) at or after their limit plus OverTimeLimit; a job no partition can
// run is cancelled and counted (Policy.Unrunnable).
// Policy.Schedule alone, without Run, makes it a sched.Scheduler.
//
// A run costs a calculation (over the associations jobs reach) per
// PriorityCalcPeriod, and a plan of each backfill cycle's jobs (README.md).
//
// What Slurm does that the model leaves out, and the expected effect
// (README.md gives each in full):
//
//   - Preemption, gang scheduling, suspension: urgent jobs wait. Licenses,
//     burst buffers, features, reservations: jobs start early.
//   - Dependencies, begin times, holds, arrays: age counts from submission.
//   - Heterogeneous, multi-partition jobs: one partition. Accounting and
//     QOS limits: users run more at once than allowed.
//   - cons_tres: one-node jobs placed as it does, wider ones first fit;
//     backfill plans named nodes (its will-run test, memory, GPUs whole)
//     only with Config.NamedNodes; the plan of CPUs ignores memory and
//     GPUs: its reservations come early.
//   - Exclusive jobs on nodes of different sizes: billed mean nodes' CPUs.
//   - TRES weights, site factor, usage reset, billing: priorities differ.
//   - Classic fair share: usage added before factors: slight differences.
//   - No scheduling time, no epilogs or bf_continue: ±1 s. Whole seconds:
//     a run reuses CPUs at their end's second, Slurm's at its loop's next
//     tick (a job ends just after one): give run times rounded up, or
//     the schedule runs ahead (examples/slurmcheck: 17–21 s at 200 jobs).
//   - Grids on Unix time only with NamedNodes and UnixStart: ±bf_resolution.
//   - No COMPLETING nodes (< 0.1 s); main scheduler's phase: ±1–2 s; a
//     periodic run passed over holds back none by SchedMinInterval.
//   - EnforcePartLimits=ALL always: over-limit jobs cancelled, not pending.
//   - Backfill plans no job that cannot start now: squeue --start only.
//     bf_max_job_test counts jobs Slurm skips uncounted: cycles end early.
//   - Limit checks exactly at multiples of 30 s from time 0 (kills seen
//     0–1 s after); a kill ends the job at once (sacct's End: no KillWait).
package slurm
