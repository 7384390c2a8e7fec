// Package slurmfeed feeds a live Slurm cluster to a karnak service, as
// Karnak's archiver gathered its data from the production schedulers
// themselves (Smith, GCE 2010; spec karnak-ibl-service §3), and scores the
// service's predictions against Slurm's own.
//
// Start here:
//
//	c, err := slurmfeed.New(slurmfeed.Config{System: "mycluster", Service: svc, Cursor: "feed.json"})
//	err = c.Run(ctx)   // polls until ctx is done; failures are retried with backoff
//	r := c.Report()
//
// svc is a *karnak.Service in the same process or a Client of one over
// HTTP. Each poll reads the partitions and the jobs of slurmctld and
// sacct and sends what changed as karnak events, each batch stored once
// even across a crash (the cursor file), with Slurm's own expected starts,
// priorities and `sbatch --test-only` answers beside them; Collector says
// what is read and sent. What cannot be fed is counted by reason in the
// Report, which also scores each method's predictions as jobs start.
// The commands run through a Runner, so that a test can replay
// recorded outputs. Exit codes are not read (22.05 reports 0 for a job
// that failed with exit code 3), the feed needs only times, sizes, GPUs
// and limits. An array's waiting tasks, which squeue shows as one record,
// are fed as one job each, under an id made of the array's job id and the
// task index (see jobID).
//
// # Forms of squeue --json and sacct --json
//
// Slurm 22.05's forms (openapi v0.0.38) and those of 23.02 on are read,
// record by record: a number as 42 or "42" (null, 4294967294 and 2^64-2
// are NO_VAL, 4294967295 INFINITE) or {"set":true,"infinite":false,
// "number":42}; a state as "PENDING" or a list of the base state and its
// flags, ["PENDING","COMPLETING"] (sacct: {"current": either}). No value
// ("set":false, NO_VAL) or an infinite one ("infinite":true) is: in a
// waiting job's start_time no expected start yet (normal); in end_time of
// a job not ended, nothing (not read); in priority none; in cpus, the TRES
// strings' count; in array_job_id not an array; in array_task_id the
// array's waiting tasks; in time_limit the partition's limit (unset) or
// none (infinite). A job without a job id or submit time, or started or
// ended without its start or end time, or with a number past 2^40 (1e300)
// is bad: left out and counted with its reason. So is a record that
// cannot be read at all (a string where a number goes, as "Unknown" for a
// time; a field nested deeper than encoding/json's 10,000 levels), its
// reason naming the field and the value, under its job id or,
// when that is unreadable, a key no Slurm job has ("job_id ..."). It never
// fails the poll nor changes how the other records are read.
//
// examples/slurmfeed is the command (its live test scores the service's
// forecast and Slurm's expected start side by side); scripts/slurm-cluster.sh
// starts a single-node cluster to try it on.
package slurmfeed
