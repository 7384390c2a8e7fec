// Package slurmfeed feeds a live Slurm cluster to a karnak service, as
// Karnak's archiver gathered its data from the production schedulers
// themselves (Smith, GCE 2010; spec karnak-ibl-service §3), and scores the
// service's predictions against Slurm's own.
//
// Every poll it reads the partitions (`scontrol show partition
// --oneliner`: each one a queue, its CPUs and time limit), the jobs
// slurmctld holds (`squeue --json`) and those that left it since the last
// poll (`sacct --json`), and turns what changed into karnak events: a job
// submitted, started, ended (a job cancelled while waiting ends without
// starting). A submit carries the job's CPUs and GPUs (gres/gpu of its
// TRES: squeue's tres_alloc_str, else tres_req_str; sacct's allocated,
// else requested; karnak.Event.GPUs, in thousandths of a GPU). Events
// are sent once they are Config.Delay old, in time order;
// each batch is written ahead to the cursor file with an id of its own, so
// that a batch is sent again after a crash or a service outage and stored
// once (the service's ingest is idempotent by batch id). A batch the
// service rejects for good (a karnak.Error that is not Temporary, as an
// in-process Service and Client both return it) is dropped and counted;
// a transient failure or a refused token keeps it for the next poll. What
// cannot be fed is counted by reason in the Report.
//
// Beside each job that waits, the collector notes Slurm's own expected
// start (the start time `squeue --start` shows) and asks the service for
// the QBETS bound and the IBL estimate; when the job starts, the Report
// gives each method's error: the mean |log10(predicted / actual wait)| and
// the share within a factor of 2.
//
// Every Config.ProbeEvery it also asks Slurm when a hypothetical job of
// each of a few shapes would start in each partition (`sbatch
// --test-only`, probe.go) and sends the answers as karnak "estimate"
// events: the service shows Slurm's own estimate beside its predictions
// for a hypothetical job. Probes are counted by outcome in the Report.
// Each waiting job's expected start (squeue) is sent too, as an estimate
// of the job, when it is new or moved, for the job's prediction, with
// its priority (squeue --json's "priority", as `squeue -o %Q` shows it:
// Slurm's order of the queue, which the service's forecast simulates;
// sent on the submit event, and again when it moves, at most once a
// minute per job). What the forecast needs of a running job is in the
// events already: its start (so its elapsed time) and its time limit
// (the submit's wall time).
//
// examples/slurmfeed's live test scores the service's forecast and
// Slurm's expected start side by side on a workload of short jobs.
//
// Start here:
//
//	c, err := slurmfeed.New(slurmfeed.Config{System: "mycluster", Service: svc, Cursor: "feed.json"})
//	err = c.Run(ctx)   // polls until ctx is done; failures are retried with backoff
//	r := c.Report()
//
// svc is a *karnak.Service in the same process or a Client of one over
// HTTP. The commands run through a Runner, so that a test can replay
// recorded outputs. Slurm 22.05's JSON (openapi v0.0.38) is the format
// read; its exit codes are not (22.05 reports 0 for a job that failed with
// exit code 3), the feed needs only times, sizes, GPUs and limits. An array's
// waiting tasks, which squeue shows as one record, are fed as one job each,
// under an id made of the array's job id and the task index (see jobID).
//
// examples/slurmfeed is the command; scripts/slurm-cluster.sh starts a
// single-node cluster to try it on.
package slurmfeed
