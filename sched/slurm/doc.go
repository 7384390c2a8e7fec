// Package slurm simulates Slurm 22.05's own scheduling on a machine of
// package sched: multifactor priority (age, fair share with decay,
// classic and Fair Tree, job size, partition, QOS, association), the
// main scheduler's priority order per partition, and sched/backfill with
// its parameters. It is configured from a site's slurm.conf (ParseConf)
// and fair-share tree (Config.ReadShares).
//
//	site, _ := slurm.ParseConf(f)            // or a Config by hand
//	p, err := slurm.New(site, sched.Config{MachineSize: 512})
//	res, err := p.Run(ctx, jobs)             // a sched.Result
//
// A job's user, account, partition and QOS are its SWF User, Group, Queue
// and Partition fields, named through Config's *Names maps. One pool of P
// processors is P nodes of one CPU; Config.Nodes in the machine gives
// Slurm's nodes.
//
// What it does, as Slurm's source does it: priorities are computed at
// submission and every PriorityCalcPeriod (the sum of weight × factor in
// Slurm's order, truncated, at least 1); usage is the CPU-seconds of
// running jobs, added every period (and at each end only when
// AccountingStorageEnforce has limits) and decayed by
// PriorityDecayHalfLife; pending jobs go by partition PriorityTier, then
// priority, then submission, then job ID. slurmctld is taken to start at
// simulated time 0, its threads ticking on grids from there. The main
// scheduler runs every sched_interval over the whole queue, and 100 jobs
// deep for the runs that submissions and ends queue, which its
// background loop makes batch_sched_delay after its last run (an end
// with an Epilog runs it at once; sched_min_interval apart in any case):
// it starts jobs in that order while they fit, and a job that does not
// fit stops its partition, and every partition sharing a node with it.
// Backfill checks bf_interval after its last cycle and then every second
// until some job changed, so cycles keep a bf_interval grid while jobs
// wait; a cycle plans up to bf_max_job_test jobs
// (bf_max_job_user each) in that order at their earliest start with
// their time limits as run times: a job that fits now without touching an
// earlier job's plan starts; a later one, within bf_window, holds whole
// nodes over its plan rounded to bf_resolution. Jobs are killed at their
// time limit plus OverTimeLimit. Partitions give MaxTime, MaxNodes and
// DefaultTime; a job no partition can run is cancelled and counted
// (Policy.Unrunnable). Policy.Schedule alone, without Run, makes it a
// sched.Scheduler for other simulators (its doc says what changes).
//
// Cost: on SDSC-BLUE (243k jobs, 1,152 processors) with age, fair share
// and job size weighted, Run takes about 7.6× plain EASY's time on the
// same jobs (BenchmarkBlueSlurm; the figures are beside it), above the
// issue's goal of 5×: most of it is backfill planning and the priority
// calculations.
//
// What Slurm does that the model leaves out, and the expected effect:
//
//   - Preemption, gang scheduling, suspension, oversubscription: jobs
//     never yield; urgent QOS jobs wait where Slurm would preempt.
//   - Licenses, burst buffers, features, advance reservations,
//     maintenance: none; jobs that need them start earlier than in Slurm.
//   - Dependencies, begin times, holds, nice, job arrays (tasks are
//     separate jobs), requeues: every job is eligible at submission, and
//     age counts from there.
//   - Heterogeneous and multi-partition jobs: one partition per job.
//   - Accounting limits (GrpTRES, MaxJobs, QOS limits, assoc limits):
//     none; a user may run more at once than the site allows.
//   - select/cons_tres: sched places jobs on nodes; backfill plans count
//     CPUs, a reservation holding whole nodes' CPUs rather than named
//     nodes, and ignores memory and GPUs; partition node sets are not
//     enforced in placement (they decide which partitions a blocked one
//     stops, and the size checks). On one node or one pool plans are
//     exact; on many, backfill is somewhat off either way.
//   - PriorityWeightTRES, site factor, FairShareDampeningFactor (1),
//     PriorityUsageResetPeriod, QOS UsageFactor, TRESBillingWeights
//     (usage is CPUs × seconds), PriorityFlags other than NO_FAIR_TREE:
//     priorities differ where a site uses them.
//   - Classic fair share: Slurm adds each running job's usage and
//     recomputes the priorities job by job in one pass; the model adds
//     all usage first. Factors differ slightly within a period.
//   - Time: scheduling takes no time and the clock counts whole seconds:
//     slurmctld's background loop is taken to check at the end of each
//     second, so a run queued in a second may be made in it (Slurm's
//     loop ticks at some phase of the second: half the time a second
//     later). Epilogs and prologs take no time; bf_continue,
//     bf_yield_interval, bf_max_time, node boot and CompleteWait have no
//     effect.
//     Slurm's backfill also refuses a job whose end second meets a
//     reservation's first; here windows are half-open.
//   - EnforcePartLimits: limits are enforced at submission (ALL); with
//     Slurm's default (NO) such jobs pend for ever.
//   - A backfill cycle stops once no job left fits in the CPUs free now:
//     those jobs get no plan in it (Slurm plans them for squeue --start);
//     starts are the same.
package slurm
