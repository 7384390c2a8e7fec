package convert

import (
	"encoding/json"
	"fmt"

	"github.com/batchq/batchq/swf"
)

// Result is a converted log: an SWF header and the jobs in submit order,
// numbered from 1, ready for swf.WriteAll. IDs[k] is the scheduler's own id
// of Jobs[k] ("123_4" for a Slurm array task, "127.server" for PBS).
//
// What goes where, for the accounting logs (Alibaba's doc says how it
// fills the fields). Submit is relative to the first submit, whose epoch
// seconds are the header's UnixStartTime (with TimeZoneString the zone of
// Options). Wait is start − submit and run time end − start, for jobs that
// started (a start time and allocated CPUs); jobs that never started have
// wait, run time and allocated processors -1. Processors are CPUs:
// sacct's AllocCPUS and ReqCPUS, jobcomp's ProcCnt, PBS's exec_host slots
// and nodes × ppn (or select chunks × ncpus) — never the node count.
// Requested time is the time limit (minutes × 60); UNLIMITED,
// Partition_Limit (unless Options.PartitionLimits has the partition) and
// INVALID are -1. Memory is per processor in kilobytes: requested from
// ReqTRES's mem (total) or ReqMem (suffix c per CPU, n per node), used as
// the largest over the job's steps of AveRSS × tasks / CPUs. Average CPU
// time is TotalCPU / allocated CPUs, -1 when TotalCPU is 0 (accounting
// off). The status: Sacct's doc (Slurm), PBS's doc (PBS).
//
// User, group, queue (the Slurm partition or PBS queue) and executable
// (the job name) are numbered from 1 in order of first use; the header
// maps them back ("; Queue: 1 debug", "; User: 1 alice", "; Group: ...",
// "; Executable: ..."; Options.HideNames drops the names but the queues).
// With Options.Accounts a Slurm log's Group is the job's account instead
// of its Unix group ("; Account: 1 physics") and Partition, which SWF
// leaves to the site, its QOS ("; Partition: 1 normal"), for a
// simulation of Slurm's fair share and QOS priority (sched/slurm's
// Config.ReadNames reads the tables back). Job k is the k-th submitted
// (ties in input order); IDs keeps the scheduler's ids: "123_4" for task 4
// of array 123 (each task is a job), "123+1" for a heterogeneous job's
// component, "12.server" for PBS.
//
// What a job asks beyond processors goes into Job.Demand (written as the
// swf package's demand line, which 18-field readers skip): its node
// count, cores per node, memory per node in MiB, GPUs per node (×1000, as
// swf.Demand counts them), the GPU models it names, per-node generic
// resources and whole nodes. Each function's doc says which fields of its
// format give them; README.md has the rules side by side. Totals are
// divided among the nodes, rounded up, and each rounding is noted. Without
// a node count the demand spreads: Cores is the CPUs in all and Memory per
// CPU, and GPUs or GRES then assume one node (noted). A demand with an
// unreadable value is not kept (noted, the error in Report.Errors), nor
// one past swf.Demand's bounds. Report.Demands counts the jobs with one
// (and a header Note explains the lines when there are any); a job whose
// log records nothing beyond processors has none. GPUTrace's jobs asking
// the same share one *swf.Demand (copy it before changing one job's); the
// other converters give each job its own.
type Result struct {
	Header *swf.Header
	Jobs   []swf.Job
	IDs    []string
	Report Report
}

// Report says what a conversion read, wrote and left out, and why. Every
// input record is accounted for: for sacct and jobcomp,
//
//	Records = Jobs + Steps + Requeued + Σ Skipped
//
// as for GPUTrace on PAI's tables, its task rows the Steps; for sacct
// --json, whose steps sit inside their job's record,
// Records = Jobs + Requeued + Σ Skipped; a PBS job spans several log
// records, so there Records only counts lines. (sacct's and sacct
// --json's record of array tasks cancelled before their start, one for
// them all, counts once per task: each is a job.) Reasons are short phrases;
// those of Alibaba and Nodes are in their docs, the others here.
//
// Skipped: "malformed record"; "not finished at dump (STATE)"; "requeued,
// pending again at dump"; "revoked federated copy"; "no submit time";
// "pending array tasks"; "array tasks ended before their start, over
// 65536 in one record or 16 a record in all"; "array range record with a start (which task ran
// is unknown)"; "record listed again (overlapping dumps)" (the
// same job id, submit, start, end and state as a record read: sacct dumps
// of windows that overlap list the jobs running across their bounds in
// both; its steps are not read again); "unfinished, a later record of the
// job follows (overlapping dumps)" (a job RUNNING or PENDING in one dump,
// with its end in the next; a PBS job filed at its D record, deleted
// while running, whose E record the log given again brings); "record
// ended by a resize (RESIZING), the job's later record kept" (Slurm logs
// a job that changed size twice: its start is the earlier record's, noted
// "resized: start from its record before the resize"); "array
// parent record", "record
// type X (not a job event)" and "record after the job ended" (a D or A
// record after the job's E record, an E record after the D record of a
// job deleted while queued) (PBS).
//
// Anomalies (jobs written): "time limit UNLIMITED"; "time limit
// Partition_Limit, partition limit unknown" (or "... from Options");
// "time limit null (UNLIMITED or Partition_Limit)" (Slurm 22.05 JSON
// writes both as null); "time limit INVALID"; "no time limit"; "time
// limit 0 (none imposed)" (Slurm reads 0 so; not kept); "killed at
// its time limit"; "cancelled while running"; "FAILED with exit code 0";
// "ended without starting"; "start before submit"; "end before start";
// "no end time"; "no account" and "no QOS" (Options.Accounts); "allocated
// processors unknown"; "unknown state"; "job id reused"; "heterogeneous
// job component"; "array task of a range record (ended before its
// start)" (sacct: a job of a record "123_[5-9]" CANCELLED); "submit time
// from EligibleTime"; "no Exit_status";
// "start from end - resources_used.walltime" (a PBS E record without a
// start); "start from end - Elapsed" (a sacct or sacct --json job that
// ran, with Start unknown or unreadable); "run time from Elapsed (no end
// time)" (a Slurm job that ran, its End unknown); "memory over 1 PiB per
// processor"; "local time in the hour repeated at a daylight-saving
// change, told by the other times" and "..., ambiguous" (sacct, jobcomp,
// GPU-trace and job-table times and scontrol snapshots' without offset
// in Options.Location: 01:30 on the night
// the clocks go back is two moments; those with submit ≤ start ≤ end and,
// sacct, end − start = Elapsed + Suspended, Philly, each attempt's start
// and end in turn (more than 12 of them in that hour: submit, first start
// and last end), are taken when only one choice is left); "local time in the hour skipped at a daylight-saving
// change (none in Location: the log's zone?)" (a wall clock the zone
// never shows: Location is likely not the log's); "record of several lines (a newline in a value)" (sacct
// text, jobcomp, scontrol: a job name or comment holding a newline cuts
// the record, its lines joined back); "user name unresolved: its id" and
// "group ..." (jobcomp and scontrol: Slurm's "(null)(1234)" for an id
// without a name, read as the user 1234); "user unknown ((null), no id)"
// and "group ..."; "no partition (empty, N/A or (null))" (sacct, sacct
// --json, jobcomp, snapshots: the queue is -1, not a queue named "N/A");
// "unreadable FIELD" (the field is -1 and the error is
// in Errors).
//
// The demand rules (Result's doc): "demand: from AllocTRES (no
// ReqTRES)", "demand: more CPUs held than requested (--exclusive or whole
// cores), those kept" (sacct, sacct --json, jobcomp: the allocation's CPUs),
// "demand: CPUs not a multiple of the nodes, cores per node
// rounded up", "demand: memory not a multiple of the nodes (or CPUs),
// rounded up", "demand: GPUs (a GRES) not a multiple of the nodes, per
// node rounded up", "demand: GPUs or GRES without a node count, one node
// assumed", "demand: memory per node without a node count, not kept",
// "demand: licences and burst buffers not kept (not per node)", "demand:
// select chunks of different shapes, the largest of each per node",
// "demand: place=pack, all chunks on one node", "demand: procs beside
// nodes, cores spread over the nodes", "demand: not kept (an unreadable
// field)", "demand: not kept (an amount out of range)".
//
// Unreadable, never taken as it is nor wrapped around, is also a value
// past the plausible: a time after the year 2200 (sacct's year 9999), an
// absolute time before 1990 (an unset or zeroed field printed as a date,
// 1970-01-01 or hours off it; 0 and "Unknown" are unknown without an
// error), more than 2^24 processors or nodes in one job (a PBS exec_host
// range of 10^9), a duration longer than 230 years. Such a time is -1
// where the SWF allows it; a job without its submit time is skipped as
// "no submit time", a PBS line whose own time stamp is one as a
// "malformed record". Alibaba's times, on the trace's own clock from 0,
// are not absolute.
//
// A snapshot (QueueSnapshot) adds the anomalies "CPUs unknown",
// "suspended", "running without a start time", "start after the snapshot
// time", and skips "finished, still listed by the controller (STATE)",
// "unknown state (S)", "pending array tasks over 65536 in one record" and
// "pending array tasks past 2097152 in the snapshot".
type Report struct {
	Format   string `json:"format"`
	Records  int    `json:"records"`  // input records read (lines, or jobs of sacct --json)
	Jobs     int    `json:"jobs"`     // jobs written
	Steps    int    `json:"steps"`    // Slurm job steps read: not jobs, their memory use goes to their job; PAI: pai_task_table rows joined to their job
	Requeued int    `json:"requeued"` // earlier attempts of requeued jobs, replaced by the last one
	// Demands counts the jobs written with a Demand (nodes, memory,
	// GPUs beyond the processors; see Result's doc).
	Demands int `json:"demands"`
	// States counts the jobs written by the scheduler's final state
	// (COMPLETED, TIMEOUT, ...; for PBS the record type that ended them).
	States map[string]int `json:"states"`
	// Skipped counts the records not written, by reason.
	Skipped map[string]int `json:"skipped"`
	// Anomalies counts written jobs with a field set to -1 or derived
	// another way than the usual one, by reason.
	Anomalies map[string]int `json:"anomalies"`
	// Errors are the first Options.MaxErrors parse errors; each is also
	// counted under Skipped or Anomalies.
	Errors []*ParseError `json:"errors,omitempty"`
	// Notes are remarks on the whole input (an absent column, say).
	Notes []string `json:"notes,omitempty"`
}

// ParseError is a malformed record or field. Line counts from 1 (for
// sacct --json, the line where the job's object starts); Field names the
// input column or key, empty when the whole record is bad; Value quotes
// the offending text, cut to about 64 bytes.
type ParseError struct {
	Format string `json:"format"`
	Line   int    `json:"line"`
	Field  string `json:"field,omitempty"`
	Value  string `json:"value,omitempty"`
	Err    error  `json:"-"`
}

func (e *ParseError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("convert: %s line %d: %v", e.Format, e.Line, e.Err)
	}
	return fmt.Sprintf("convert: %s line %d, field %s: %q: %v", e.Format, e.Line, clip(e.Field), e.Value, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// MarshalJSON adds the message, which the Err field cannot carry.
func (e *ParseError) MarshalJSON() ([]byte, error) {
	type plain ParseError
	return json.Marshal(struct {
		*plain
		Error string `json:"error"`
	}{(*plain)(e), e.Error()})
}
