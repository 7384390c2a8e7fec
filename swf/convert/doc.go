// Package convert turns scheduler accounting logs into the Standard
// Workload Format of package swf: Slurm's sacct (--parsable2 and --json),
// Slurm's jobcomp/filetxt file, and PBS/Torque (and PBS Pro) accounting
// logs. Each format has one function, taking plain or gzip input and
// Options, and returning a Result: the SWF header, the jobs in submit
// order, the scheduler's id of each job, and a Report that accounts for
// every input record — written, a step, an earlier attempt, or skipped
// with its reason — and counts every job written with a field it could
// not fill. QueueSnapshot reads the other kind of input, a snapshot of a
// Slurm queue (see Queue snapshots). Alibaba reads a pod list of Alibaba's
// GPU cluster trace of 2023 into jobs with their demands (swf.Demand), and
// Nodes its node list, or a batchq nodes file, into a machine's kinds of
// node (swf.Node).
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
// SLURM_TIME_FORMAT=%s prints epoch seconds, which need no time zone;
// without it sacct prints local times, to be read with Options.Location.
// --duplicates lists every attempt of a requeued job; steps stay in (no
// -X) because they carry the memory used.
//
// # What goes where
//
// Submit is relative to the first submit, whose epoch seconds are the
// header's UnixStartTime (with TimeZoneString the zone of Options). Wait is
// start − submit and run time end − start, for jobs that started (a start
// time and allocated CPUs); jobs that never started have wait, run time
// and allocated processors -1. Processors are CPUs: sacct's AllocCPUS and
// ReqCPUS, jobcomp's ProcCnt, PBS's exec_host slots and nodes × ppn (or
// select chunks × ncpus) — never the node count. Requested time is the
// time limit (minutes × 60); UNLIMITED, Partition_Limit (unless
// Options.PartitionLimits has the partition) and INVALID are -1. Memory
// is per processor in kilobytes: requested from ReqTRES's mem (total) or
// ReqMem (suffix c per CPU, n per node), used as the largest over the
// job's steps of AveRSS × tasks / CPUs. Average CPU time is TotalCPU /
// allocated CPUs, -1 when TotalCPU is 0 (accounting off).
//
// User, group, queue (the Slurm partition or PBS queue) and executable
// (the job name) are numbered from 1 in order of first use; the header
// maps them back ("; Queue: 1 debug", "; User: 1 alice", "; Group: ...",
// "; Executable: ..."; Options.HideNames drops the names but the queues).
// With Options.Accounts a Slurm log's Group is the job's account instead
// of its Unix group ("; Account: 1 physics") and Partition, which SWF
// leaves to the site, its QOS ("; Partition: 1 normal"), for a
// simulation of Slurm's fair share and QOS priority (sched/slurm's
// Config.ReadNames reads the tables back).
// Job k is the k-th submitted (ties in input order); Result.IDs keeps the
// scheduler's ids: "123_4" for task 4 of array 123 (each task is a job),
// "123+1" for a heterogeneous job's component, "12.server" for PBS.
//
// # Demands
//
// What a job asks beyond processors goes into Job.Demand (written as the
// swf package's demand line, which 18-field readers skip): its node
// count, cores per node, memory per node in MiB, GPUs per node (×1000,
// as swf.Demand counts them), the GPU models it names, per-node generic
// resources and whole nodes. Report.Demands counts the jobs with one (and
// a header Note explains the lines when there are any); a job whose log
// records nothing beyond processors has none.
//
//	sacct, --json   ReqTRES / tres.requested (else AllocTRES /
//	                tres.allocated, noted): cpu, mem (the job's total), node,
//	                gres/gpu, gres/gpu:MODEL (models), other gres/X (Named,
//	                "gres/X"); billing, energy, fs/*, vmem ignored; license/*
//	                and bb/* not kept (cluster-wide, noted). Nodes from
//	                ReqNodes, AllocNodes or NNodes (--json: allocation_nodes)
//	                when the TRES have none; memory from ReqMem (suffix c per
//	                CPU, n per node, none in all; --json: required
//	                memory_per_cpu, memory_per_node) when they have none;
//	                GPUs from the old ReqGRES or AllocGRES ("gpu:tesla:2",
//	                per node). sacct records no --exclusive.
//	jobcomp         Tres (the allocation) and NodeCnt.
//	scontrol        ReqTRES, else TRES (a running job's allocation before
//	                Slurm 23.02: no memory where it is not tracked), else
//	                AllocTRES; NumNodes; MinMemoryNode or MinMemoryCPU;
//	                TresPerNode ("gres:gpu:a100:2"); OverSubscribe=NO for
//	                whole nodes (QueuedJob.Demand).
//	slurmrestd      tres_req_str, else tres_alloc_str; node_count;
//	                memory_per_node or memory_per_cpu (QueuedJob.Demand).
//	PBS             Resource_List.select chunks (PBS Pro: N:ncpus=:ngpus=:
//	                mem=:gpu_model=) or nodes (Torque: N:ppn=:gpus=), each
//	                chunk a node; nodect without them; mem (in all, unless
//	                the chunks give theirs) or pmem (per process); ngpus
//	                when the chunks give none; place=excl or exclhost, or
//	                naccesspolicy=singlejob, for whole nodes.
//
// Totals are divided among the nodes, rounded up, and each rounding is
// noted. Chunks of different shapes in one select become that many nodes
// of the largest shape (the largest CPUs, memory and GPUs of any chunk,
// per node; noted), which never asks less than the job needs;
// place=pack puts every chunk on one node (noted). Without a node count
// the demand spreads: Cores is the CPUs in all and Memory per CPU, and
// GPUs or GRES then assume one node (noted). A demand with an unreadable
// value is not kept (noted, the error in Report.Errors), nor one past
// swf.Demand's bounds.
//
// # Status
//
// Slurm's status comes from the job state, never the exit code (Slurm
// 22.05's sacct --json reports 0 for a job that failed with code 3):
//
//	COMPLETED                                    1
//	FAILED, NODE_FAIL, OUT_OF_MEMORY,
//	PREEMPTED, BOOT_FAIL, DEADLINE               0
//	TIMEOUT                                      0, run time kept: it ran to its limit
//	                                             and was killed, as sched writes jobs
//	                                             killed at their estimate
//	CANCELLED before the start                   5, wait and run time -1
//	CANCELLED after the start                    5, wait and run time kept (SWF's
//	                                             "cancelled"; the swf package's
//	                                             StatusCancelled covers both)
//	PENDING, RUNNING, REQUEUED and the other     skipped: not finished at dump
//	states of unfinished jobs
//
// PBS E records carry no state, only Exit_status: 0 is 1, anything else 0
// (-11, Torque's walltime kill, also noted as a timeout); D and A records
// make the job 5.
//
// # Requeues, steps, arrays
//
// sacct --duplicates and the jobcomp file list a requeued job once per
// attempt, all with the same raw job id; the earlier attempts end
// REQUEUED (or NODE_FAIL, PREEMPTED, BOOT_FAIL when Slurm requeued it
// itself). The last attempt is the job, with its own submit, start and
// end; the earlier ones are counted in Report.Requeued. A raw id seen
// again after a final state is a reused id: both jobs are kept, the later
// noted "job id reused". Job steps (123.batch, 123.extern, 123.0) are
// counted in Report.Steps, never written as jobs. Array tasks still
// pending print as one record "123_[5-9]": skipped as "pending array
// tasks".
//
// # Queue snapshots
//
// slurmrestd's GET /slurm/v0.0.XX/jobs (v0.0.37 to v0.0.41; squeue --json
// has the same shape) and scontrol show job (records of indented lines,
// or one line each with -o) list the controller's jobs at one moment: a
// snapshot of the live queue, not accounting — nothing in it says how a
// job ends. QueueSnapshot reads either into a Snapshot: its Time, the
// running jobs (start, elapsed time, time limit, CPUs and nodes held) and
// the waiting jobs in the scheduler's order (priority, Slurm's expected
// start, reason), each with partition, user and account — what a
// start-time forecast starts from. Jobs the controller still lists after
// their end are skipped ("finished, still listed by the controller
// (STATE)"); a record of pending array tasks becomes a job per task (at
// most 65536). Snapshot.Jobs gives the jobs as swf.Jobs on the epoch
// clock, for a forecast by simulation; Snapshot.SWF the SWF form, with the
// snapshot's time in the header. Neither form states its time: give Options.Now, or the
// latest moment the input shows is taken (noted as a lower bound).
// With Options.Accounts, Snapshot.SWF writes each job's account in Group
// and its QOS in Partition, as the accounting conversions do.
//
// # Report reasons
//
// Skipped: "malformed record"; "not finished at dump (STATE)"; "requeued,
// pending again at dump"; "revoked federated copy"; "no submit time";
// "pending array tasks"; "array parent record" and "record type X (not a
// job event)" (PBS).
//
// Anomalies (jobs written): "time limit UNLIMITED"; "time limit
// Partition_Limit, partition limit unknown" (or "... from Options");
// "time limit null (UNLIMITED or Partition_Limit)" (Slurm 22.05 JSON
// writes both as null); "time limit INVALID"; "no time limit"; "killed
// at its time limit"; "cancelled while running"; "FAILED with exit code
// 0"; "ended without starting"; "start before submit"; "end before
// start"; "no end time"; "no account" and "no QOS" (Options.Accounts);
// "allocated processors unknown"; "unknown state"; "job id reused"; "heterogeneous job component"; "submit time
// from EligibleTime"; "no Exit_status"; "memory over 1 PiB per
// processor"; "unreadable FIELD" (the field is -1 and the error is in
// Report.Errors); and the demand rules: "demand: from AllocTRES (no
// ReqTRES)", "demand: CPUs not a multiple of the nodes, cores per node
// rounded up", "demand: memory not a multiple of the nodes (or CPUs),
// rounded up", "demand: GPUs (a GRES) not a multiple of the nodes, per
// node rounded up", "demand: GPUs or GRES
// without a node count, one node assumed", "demand: memory per node
// without a node count, not kept", "demand: licences and burst buffers
// not kept (not per node)", "demand: select chunks of different shapes,
// the largest of each per node", "demand: place=pack, all chunks on one
// node", "demand: procs beside nodes, cores spread over the nodes",
// "demand: not kept (an unreadable field)", "demand: not kept (an amount
// out of range)". A value past the plausible is unreadable, never taken
// as it is nor wrapped around: a time after the year 2200 (sacct's year
// 9999), more than 2^24 processors or nodes in one job (a PBS exec_host
// range of 10^9), a duration longer than 230 years. A snapshot adds
// "CPUs unknown", "suspended", "running without a start time", "start
// after the snapshot time", and skips "unknown state (S)" and "pending
// array tasks over 65536 in one record".
//
// An input in another format than the function's, or of which no record
// is readable, is a *FormatError (errors.As) naming the format it looks
// like and the function that reads it, so that nothing is converted to 0
// jobs in silence. Errors name the format, the line, the field and quote
// at most about 64 bytes of the value. By default a malformed record is skipped and
// counted; Options.Strict stops at the first. No input makes a converter
// panic (each format has a fuzz test) or hold more than one line (1 MiB)
// or one JSON job (64 MiB) beyond the jobs it keeps (about 300 bytes each
// while converting, 180 in the Result, and about 110 and 80 more for a
// job with a demand). The converters share no state:
// they may run concurrently.
package convert
