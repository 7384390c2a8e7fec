package convert

import (
	"errors"
	"fmt"
	"time"
)

// defaultMaxErrors is how many parse errors a Report keeps when
// Options.MaxErrors is 0.
const defaultMaxErrors = 100

// Options configure a conversion. The zero value converts with timestamps
// read as UTC, skips (and counts) malformed records, and writes no machine
// size.
type Options struct {
	// Location is the time zone of textual timestamps: sacct's Submit,
	// Start and End (unless sacct ran with SLURM_TIME_FORMAT=%s, or a
	// format with the offset, %FT%T%z, which is kept), the
	// jobcomp file's times, the PBS log's own time stamps, and the Helios
	// and Philly job tables' times (GPUTrace; Acme's carry their offset).
	// Slurm and PBS write them in the local time of the machine that wrote
	// them. nil means UTC. Epoch seconds (sacct --json, PBS
	// ctime/start/end) need no zone.
	Location *time.Location
	// Strict stops at the first malformed record or unreadable field with
	// its *ParseError. By default such a record is skipped (or the field
	// set to -1) and counted in the Report, whose Errors keep the first
	// MaxErrors.
	Strict bool
	// MaxErrors bounds Report.Errors; 0 means 100.
	MaxErrors int
	// Computer and Installation go into the SWF header as they are.
	Computer, Installation string
	// HideNames leaves the user, group and job names out of the header
	// (their numbers stay in the jobs), for logs that are to be shared.
	// Queue names are kept.
	HideNames bool
	// MaxProcs is the machine size in processors, for the header's
	// MaxProcs. Accounting logs do not record it; 0 leaves it out (and a
	// Note gives the largest allocation seen instead).
	MaxProcs int64
	// PartitionLimits maps a partition (queue) name to its time limit in
	// seconds. Jobs whose own limit is Slurm's Partition_Limit (or null in
	// sacct --json, where UNLIMITED and Partition_Limit look alike) get
	// it as their requested time; without an entry their requested time
	// is -1, counted as an anomaly.
	PartitionLimits map[string]int64
	// Accounts makes a Slurm conversion (Sacct, SacctJSON, Jobcomp, and
	// Snapshot.SWF of a QueueSnapshot) write the job's account in the SWF Group field (13) instead of its Unix
	// group, and its QOS in the Partition field (16), which SWF leaves to
	// the site: what a simulation of Slurm's fair share and QOS priority
	// needs (package sched/slurm). Each is numbered from 1 in order of
	// first use, the header mapping them back in "; Account: 1 physics"
	// lines (instead of "; Group:") and "; Partition: 1 normal" lines
	// (kept with HideNames, as queue names are). Jobs without an account
	// or QOS get -1, counted as anomalies "no account" and "no QOS";
	// sacct needs the Account and QOS columns (SacctFormat has them). A
	// snapshot's jobs carry both (QueuedJob.Account, QOS) with or without
	// it. PBS logs keep their Unix groups (a Report note says so).
	Accounts bool
	// Now is the moment a queue snapshot (QueueSnapshot) was taken, which
	// neither slurmrestd's /jobs nor scontrol show job states; the zero
	// value takes the latest moment the input shows, a lower bound.
	// Accounting conversions do not use it.
	Now time.Time
	// CoresPerNode is the cores of one node, for a job table that gives
	// a job's nodes but not its cores (GPUTrace: an ALCF job log without
	// CORES_USED, a ColumnMap with nodes and no procs): its processors
	// are then nodes × CoresPerNode. 0, the default, guesses nothing:
	// such a job's processors are -1, counted ("processors unknown
	// (nodes only; give Options.CoresPerNode)").
	CoresPerNode int64
	// ColumnMap makes GPUTrace read any job table with a header line
	// (comma or tab separated, fields optionally in double quotes) by
	// the columns it names: a role (the keys below) → the header's name
	// of its column (any letter case). submit is needed; the others are
	// optional:
	//
	//	id, submit, start, end            job id; times (epoch seconds, or
	//	                                  "2006-01-02 15:04:05" / RFC 3339,
	//	                                  read in Location without an offset)
	//	runtime, limit                    durations: seconds, or [D-]HH:MM:SS;
	//	                                  "COLUMN:min" or "COLUMN:h" for minutes, hours
	//	procs, reqprocs                   processors (cores) allocated, requested
	//	nodes, reqnodes                   nodes allocated, requested
	//	gpus                              GPUs in all (the demand line)
	//	state                             Slurm's state words (any case,
	//	                                  "CANCELLED by 123"), or an exit
	//	                                  code "N:M"; numbers are Slurm's
	//	                                  enum job_states with
	//	                                  "COLUMN:slurmdb", else not read
	//	                                  (noted, as any other value)
	//	exit                              exit code, or "N:M" (0 or 0:0 → 1,
	//	                                  else 0)
	//	user, group, queue, name          numbered in the SWF
	//	reqmem, usedmem                   memory requested, used: the job's
	//	                                  in all (Slurm's MaxRSS is one
	//	                                  task's: the job's only for one
	//	                                  task; Sacct multiplies by NTasks),
	//	                                  in the value's
	//	                                  unit ("16G", "4000M", "3.5GiB";
	//	                                  powers of 1024), else the suffix's,
	//	                                  else MiB (noted); "COLUMN:GB/node",
	//	                                  "COLUMN:MB/proc" (or /cpu, /core)
	//	                                  for per node, per processor (and
	//	                                  Slurm's ReqMem "4000Mc", "4Gn").
	//	                                  SWF's fields 10 and 7 (KB per
	//	                                  processor) and the demand line's
	//	                                  memory; a job without, counted
	//
	// A column in double quotes is its name as written, CSV's way ("" is
	// a quote inside): `"Submit, UTC"`, `"Time:h"` (no unit cut from it),
	// a suffix after the closing quote (`"Wall, req":min`). The Report's
	// Format is then "table" whatever the header looks like.
	ColumnMap map[string]string
}

// Validate reports whether the options are usable.
func (o *Options) Validate() error {
	var errs []error
	if o.MaxErrors < 0 {
		errs = append(errs, fmt.Errorf("convert: MaxErrors %d is negative", o.MaxErrors))
	}
	if o.MaxProcs < 0 {
		errs = append(errs, fmt.Errorf("convert: MaxProcs %d is negative", o.MaxProcs))
	}
	if o.MaxProcs > 1<<40 {
		// The bound of sched's MachineSize: a header past it made a
		// trace that simulate, replay, forecast and estimates refuse.
		errs = append(errs, fmt.Errorf("convert: MaxProcs %d above 2^40 processors, a machine no simulator takes", o.MaxProcs))
	}
	for p, s := range o.PartitionLimits {
		// At most the longest duration read (230 years): a larger one
		// (minutes typed for seconds, or 2^30 minutes) was every such
		// job's requested time, the bound a log's own limit has.
		if s <= 0 || s > maxTime {
			// (in minutes too: the unit of Slurm's limits and of
			// examples/convert's -partition-limit, which reports this)
			errs = append(errs, fmt.Errorf("convert: PartitionLimits[%q] = %d, want a positive number of seconds, at most %d (%d minutes, 230 years)",
				clip(p), s, int64(maxTime), int64(maxTime/60)))
		}
	}
	if o.CoresPerNode < 0 || o.CoresPerNode > maxProcs {
		errs = append(errs, fmt.Errorf("convert: CoresPerNode %d is not in [0, %d]", o.CoresPerNode, maxProcs))
	}
	if o.ColumnMap != nil {
		if err := checkColumnMap(o.ColumnMap); err != nil {
			errs = append(errs, err)
		}
	}
	if !o.Now.IsZero() && checkTime(o.Now.Unix()) != nil {
		errs = append(errs, fmt.Errorf("convert: Now %v is before 1990 or after 2200", o.Now))
	}
	return errors.Join(errs...)
}

func (o *Options) location() *time.Location {
	if o.Location == nil {
		return time.UTC
	}
	return o.Location
}

func (o *Options) maxErrors() int {
	if o.MaxErrors == 0 {
		return defaultMaxErrors
	}
	return o.MaxErrors
}
