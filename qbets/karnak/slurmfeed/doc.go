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
// Both Slurm 22.05's forms (openapi v0.0.38) and those of 23.02 and later
// (data_parser v0.0.39 on) are read, record by record, even mixed:
//
//   - a number as 42 or "42" (22.05; null, 4294967294 or 2^64-2 is
//     NO_VAL, 4294967295 INFINITE), or as {"set":true,"infinite":false,
//     "number":42} (23.02 on);
//   - a state as "PENDING" (22.05; sacct: {"current":"PENDING"}), or as a
//     list of the base state and its flags, ["PENDING","COMPLETING"], whose
//     first word is read (23.02 on; sacct from 23.11: {"current":[...]}).
//
// A number with no value ("set":false, null, NO_VAL) or an infinite one
// ("infinite":true, INFINITE) means, by field: for a waiting job's
// start_time (its expected start) no estimate yet, which is normal; for
// end_time of a waiting or running job nothing (not read); for priority
// none; for cpus the TRES strings' count; for array_job_id not an array,
// for array_task_id the array's waiting tasks (array_task_string); for
// time_limit the partition's limit when unset, no limit when infinite.
// The job is bad, left out and counted with its reason, when it has no
// job id or submit time, a running job no start time, an ended job no end
// time (sacct: a job id or submit time; a started or ended job its start
// or end). A number past 2^40, as 1e300, is never a value: its job is
// bad (2^64+5, past float64's precision, reads as NO_VAL64: no value).
//
// A record that cannot be read at all (a string where a number goes, as
// "Unknown" for a time; an object for the partition) is a bad job too,
// its reason naming the field and the value, under its job id when that
// can be read, else under a key of its own ("job_id ..." as written,
// which is no Slurm job's key). One such record never fails the poll, nor
// changes how the others are read; only output that is not the command's
// JSON at all, or that reports errors, fails it.
//
// examples/slurmfeed is the command (its live test scores the service's
// forecast and Slurm's expected start side by side); scripts/slurm-cluster.sh
// starts a single-node cluster to try it on.
package slurmfeed
