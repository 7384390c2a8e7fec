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
// recorded outputs. Slurm 22.05's JSON (openapi v0.0.38) is the format
// read; its exit codes are not (22.05 reports 0 for a job that failed with
// exit code 3), the feed needs only times, sizes, GPUs and limits. An array's
// waiting tasks, which squeue shows as one record, are fed as one job each,
// under an id made of the array's job id and the task index (see jobID).
//
// examples/slurmfeed is the command (its live test scores the service's
// forecast and Slurm's expected start side by side); scripts/slurm-cluster.sh
// starts a single-node cluster to try it on.
package slurmfeed
