// Package convert turns scheduler accounting logs into the Standard
// Workload Format of package swf. One function per format, each taking
// plain or gzip input and Options: Sacct (Slurm's sacct --parsable2),
// SacctJSON (sacct --json), Jobcomp (Slurm's jobcomp/filetxt file) and
// PBS (PBS/Torque and PBS Pro accounting logs) return a Result: the SWF
// header, the jobs in submit order, the scheduler's id of each job, and a
// Report. QueueSnapshot reads a snapshot of a live Slurm queue instead
// (slurmrestd's /jobs, squeue --json, scontrol show job). Alibaba reads
// the pod list of Alibaba's GPU cluster trace of 2023 into jobs with their
// demands (swf.Demand), and Nodes its node list, or a batchq nodes file,
// into a machine's kinds of node (swf.Node). GPUTrace reads the job table
// of Helios, Acme, Philly, PAI 2020, MIT SuperCloud or ALCF (told from its
// first bytes), or any table by Options.ColumnMap, into jobs with demands.
//
//	res, err := convert.Sacct(f, convert.Options{Location: time.Local})
//	...
//	err = swf.WriteAll(w, res.Header, res.Jobs)
//
// For sacct, run (as a user who sees every job, e.g. root or an operator)
//
//	SLURM_TIME_FORMAT=%s sacct --allusers --duplicates --parsable2 \
//	    --starttime 2024-01-01 --endtime now --format <SacctFormat>
//
// SLURM_TIME_FORMAT=%s prints epoch seconds, which need no time zone, as
// "%FT%T%z" times with their offset do; without it sacct prints local
// times, to be read with Options.Location.
// --duplicates lists every attempt of a requeued job; steps stay in (no
// -X) because they carry the memory used.
//
// The contract. Nothing is dropped in silence: the Report accounts for
// every input record — written, a step, an earlier attempt, or skipped
// with its reason — and counts every job written with a field it could
// not fill or derived another way, by reason (Report's doc lists them).
// An input in another format than the function's, or of which no record
// is readable, is a *FormatError (errors.As) naming the format it looks
// like and the function that reads it, so that nothing is converted to 0
// jobs in silence. Errors name the format, the line,
// the field and quote at most about 64 bytes of the value. By default a
// malformed record is skipped and counted; Options.Strict stops at the
// first. A value past the plausible is unreadable, never taken as it is
// nor wrapped around. No input makes a converter panic (each format has a
// fuzz test) or hold more than one line (1 MiB) or one JSON job (64 MiB)
// beyond the jobs it keeps (about 300 bytes each while converting, 180 in
// the Result, about 110 and 80 more for a job with a demand). The
// converters share no state: they may run concurrently.
//
// A damaged gzip input fails with the stream's error (gzip.ErrChecksum)
// even where its garbage stopped the conversion first (as swf.Open).
//
// Where the details are: how each SWF field is filled, Result; the
// status, requeues, steps and arrays of Slurm logs, Sacct; each format's
// fields and demands, its function; snapshots, QueueSnapshot and Snapshot;
// the reasons counted, Report. README.md (in this directory) gathers the
// reference tables side by side: fields, demands per format, statuses.
package convert
