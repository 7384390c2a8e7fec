package swf

import "math"

// Unknown is the value SWF uses for a missing or meaningless field.
const Unknown = -1

// Status is SWF field 11. The standard defines 0, 1 and 5 (and -1 for
// unknown); some archive logs use 2, 3 and 4 for partial executions of
// checkpointed jobs. Other values (Sandia-Ross has -2 and -4) are accepted
// by the Reader as they are and counted in Stats.OtherStatus.
type Status int64

// The status values of the SWF definition.
const (
	StatusUnknown   Status = -1
	StatusFailed    Status = 0 // the job failed or was killed
	StatusCompleted Status = 1 // the job completed normally
	StatusPartial   Status = 2 // a partial execution, to be continued
	StatusLastPart  Status = 3 // the last partial execution, completed
	StatusLastFail  Status = 4 // the last partial execution, failed
	StatusCancelled Status = 5 // cancelled before (or while) running
)

// Partial reports whether a line of this status is one partial execution
// of a job (2, 3 or 4: a run of a checkpointed or swapped job), whose
// summary line, under the same number, carries the whole run: not a job
// of its own. It repeats its job's submit time where the log puts the
// run.
func (s Status) Partial() bool { return s >= StatusPartial && s <= StatusLastFail }

// defined reports whether s is one of the SWF definition's codes, −1 to 5
// (Stats.OtherStatus counts the others): one unsigned comparison, on the
// reader's path of every line.
func (s Status) defined() bool {
	return uint64(s-StatusUnknown) <= uint64(StatusCancelled-StatusUnknown)
}

// Job is one line of an SWF trace: the 18 fields of the Standard Workload
// Format, in order, with Unknown (-1) for missing values. Times are int64
// seconds; field 6 is a float because archive logs write fractional
// averages (e.g. "142.00"), and the memory fields are floats for the same
// reason.
type Job struct {
	ID           int64   // 1: job number, a counter from 1; cleaned logs keep the original numbers, so it has gaps
	Submit       int64   // 2: submit time, seconds from the start of the log
	Wait         int64   // 3: wait time in the queue, seconds
	RunTime      int64   // 4: run time (wall clock), seconds
	AllocProcs   int64   // 5: number of allocated processors
	AvgCPUTime   float64 // 6: average CPU time used per processor, seconds
	UsedMemory   float64 // 7: average used memory per processor, kilobytes
	ReqProcs     int64   // 8: requested number of processors
	ReqTime      int64   // 9: requested time (the user's runtime estimate, also the kill time), seconds
	ReqMemory    float64 // 10: requested memory per processor, kilobytes
	Status       Status  // 11: completion status, see the Status constants
	User         int64   // 12: user id, a natural number
	Group        int64   // 13: group id
	Executable   int64   // 14: executable (application) number
	Queue        int64   // 15: queue number (0 conventionally means interactive)
	Partition    int64   // 16: partition number
	PrecedingJob int64   // 17: the job number this job depends on
	ThinkTime    int64   // 18: think time from the preceding job's end, seconds

	// Demand is what the job asks of a machine of nodes beyond its
	// processor count (memory, GPUs, nodes, …), nil if only processors.
	// It is not one of the 18 fields: the Reader and Writer carry it on
	// an extension line (see the package doc).
	Demand *Demand
}

// NewJob returns a job whose every field is Unknown (Status
// StatusUnknown), as a line of -1s reads: set the fields you know.
//
//	j := swf.NewJob()
//	j.ID, j.Submit, j.RunTime, j.ReqProcs, j.ReqTime = 1, 0, 3600, 16, 7200
func NewJob() Job {
	return Job{ID: Unknown, Submit: Unknown, Wait: Unknown, RunTime: Unknown, AllocProcs: Unknown,
		AvgCPUTime: Unknown, UsedMemory: Unknown, ReqProcs: Unknown, ReqTime: Unknown, ReqMemory: Unknown,
		Status: StatusUnknown, User: Unknown, Group: Unknown, Executable: Unknown, Queue: Unknown,
		Partition: Unknown, PrecedingJob: Unknown, ThinkTime: Unknown}
}

// NumFields is the number of fields in an SWF job line.
const NumFields = 18

// FieldName returns the standard name of field i, counted from 0 (field
// 1 is FieldName(0)), or "" out of range. Parse errors use it to name the
// offending field.
func FieldName(i int) string {
	if i < 0 || i >= NumFields {
		return ""
	}
	return fieldNames[i]
}

var fieldNames = [NumFields]string{
	"job number", "submit time", "wait time", "run time", "allocated processors",
	"average CPU time", "used memory", "requested processors", "requested time",
	"requested memory", "status", "user id", "group id", "executable",
	"queue", "partition", "preceding job", "think time",
}

// Size is the job's processor count: allocated processors (field 5), or,
// when that is unknown, the requested processors (field 8). It returns
// Unknown when neither is known. This is the thesis's rule (Tsafrir S5).
func (j *Job) Size() int64 {
	if j.AllocProcs > 0 {
		return j.AllocProcs
	}
	if j.ReqProcs > 0 {
		return j.ReqProcs
	}
	return Unknown
}

// Start is the logged start time (submit + wait), or Unknown when the wait
// is unknown, or the sum is past 2^63 − 1 (a corrupt time, which wrapped to
// a negative start).
func (j *Job) Start() int64 {
	if j.Wait < 0 || j.Submit < 0 || j.Wait > math.MaxInt64-j.Submit {
		return Unknown
	}
	return j.Submit + j.Wait
}

// HasEstimate reports whether the job carries a user runtime estimate.
func (j *Job) HasEstimate() bool { return j.ReqTime > 0 }
