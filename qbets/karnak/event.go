package karnak

import (
	"fmt"
	"unicode/utf8"

	"github.com/batchq/batchq/internal/sysname"
)

// Event is one state change of a job on a monitored system, the unit the
// archiver of Karnak derives from queue snapshots (§3): a job was
// submitted, started or ended. A "queue" event declares a queue and its
// limits (Karnak read them from GLUE 2); jobs may only be submitted to
// declared queues, so that requests can be validated against the limits
// (§2.3). An "estimate" event carries the scheduler's own expected
// start, as a Slurm feed reads it (package slurmfeed): of a hypothetical
// job of a queue (`sbatch --test-only`: a job of Cores and WallTime
// submitted at Time would start at Start), or, with Job, of that waiting
// job (squeue, at Time); the service shows the latest beside its
// predictions (slurm.go). Times are Unix seconds.
type Event struct {
	Kind   string `json:"kind" xml:"kind"` // KindQueue, KindSubmit, KindStart, KindEnd or KindEstimate
	System string `json:"system" xml:"system"`
	Job    int64  `json:"job,omitempty" xml:"job,omitempty"`
	Time   int64  `json:"time" xml:"time"`
	Queue  string `json:"queue,omitempty" xml:"queue,omitempty"` // queue, submit
	// Cores is the job's size (submit, estimate) or the queue's maximum
	// (queue).
	Cores int64 `json:"cores,omitempty" xml:"cores,omitempty"`
	// GPUs is the job's GPUs in all (submit only; 0 = none), in
	// thousandths of one GPU as swf.Demand counts them: 2000 is two
	// GPUs, 460 a 46% share of one. The service shows it with the
	// waiting jobs; the predictions do not use it.
	GPUs int64 `json:"gpus,omitempty" xml:"gpus,omitempty"`
	// WallTime is the job's requested run time (submit: 0 = none given;
	// estimate) or the queue's maximum (queue), seconds.
	WallTime int64 `json:"wallTime,omitempty" xml:"wallTime,omitempty"`
	// Start is the scheduler's expected start (estimate only; 0 in an
	// estimate of a job that carries its Priority alone: the scheduler
	// has no expected start yet).
	Start int64 `json:"start,omitempty" xml:"start,omitempty"`
	// Priority is the scheduler's priority of a waiting job (submit, or
	// an estimate of the job: its latest), higher first: the order of
	// the queue the forecast simulates (forecast.go). 0: none sent; the
	// jobs without one follow, in submission order.
	Priority int64  `json:"priority,omitempty" xml:"priority,omitempty"`
	User     string `json:"user,omitempty" xml:"user,omitempty"`
	Project  string `json:"project,omitempty" xml:"project,omitempty"`
	Name     string `json:"name,omitempty" xml:"name,omitempty"`
}

// The values of Event.Kind.
const (
	KindQueue    = "queue"    // declares a queue and its limits
	KindSubmit   = "submit"   // a job was submitted
	KindStart    = "start"    // a job started
	KindEnd      = "end"      // a job ended
	KindEstimate = "estimate" // the scheduler's expected start
)

// check validates the fields an event of its kind needs, independent of
// the service state; the error names the field.
func (e *Event) check() error {
	if !validName(e.System) {
		return fmt.Errorf("system: %q is not a name (%s)", clip(e.System), sysname.Rule)
	}
	if e.Job < 0 {
		return fmt.Errorf("job: %d, want a job id ≥ 0", e.Job)
	}
	// A queue is a name on every event that has one, not only where it
	// is needed: on a start or an end it was not checked at all, and 4 MiB
	// of it, terminal escapes included, were stored and written back
	// as they were by the last event's text (the errors quote names
	// clipped, as they may be that long).
	if e.Queue != "" && !validName(e.Queue) {
		return fmt.Errorf("queue: %q is not a queue name (%s)", clip(e.Queue), sysname.Rule)
	}
	if e.Time < 0 || e.Time > maxSpan {
		return fmt.Errorf("time: %d, want Unix seconds in 0–%d", e.Time, int64(maxSpan))
	}
	for _, f := range []struct{ name, v string }{{"user", e.User}, {"project", e.Project}, {"name", e.Name}} {
		if len(f.v) > maxField {
			return fmt.Errorf("%s: %d bytes, at most %d", f.name, len(f.v), maxField)
		}
		if !utf8.ValidString(f.v) {
			return fmt.Errorf("%s: not valid UTF-8", f.name)
		}
	}
	if e.Cores < 0 || e.Cores > maxSpan {
		return fmt.Errorf("cores: %d, want 0–%d", e.Cores, int64(maxSpan))
	}
	if e.GPUs < 0 || e.GPUs > maxSpan {
		return fmt.Errorf("gpus: %d, want 0–%d thousandths of a GPU", e.GPUs, int64(maxSpan))
	}
	if e.GPUs != 0 && e.Kind != "submit" {
		return fmt.Errorf("gpus: %d on a %q event; only a submit has them", e.GPUs, clip(e.Kind))
	}
	if e.WallTime < 0 || e.WallTime > maxSpan {
		return fmt.Errorf("wallTime: %d, want 0–%d seconds", e.WallTime, int64(maxSpan))
	}
	if e.Start != 0 && e.Kind != "estimate" {
		return fmt.Errorf("start: %d on a %q event; only an estimate has one", e.Start, clip(e.Kind))
	}
	if e.Priority < 0 || e.Priority > maxSpan {
		return fmt.Errorf("priority: %d, want 0–%d", e.Priority, int64(maxSpan))
	}
	if e.Priority != 0 && e.Kind != "submit" && (e.Kind != "estimate" || e.Job == 0) {
		return fmt.Errorf("priority: %d on a %q event; only a submit or an estimate of a job has one", e.Priority, clip(e.Kind))
	}
	switch e.Kind {
	case "queue":
		if !validName(e.Queue) || e.Queue == allJobs {
			return fmt.Errorf("queue: %q is not a queue name", clip(e.Queue))
		}
		if e.Cores < 1 {
			return fmt.Errorf("cores: %d, want the queue's maximum ≥ 1", e.Cores)
		}
		if e.WallTime < 1 {
			return fmt.Errorf("wallTime: %d, want the queue's maximum ≥ 1 s", e.WallTime)
		}
	case "submit":
		if !validName(e.Queue) {
			return fmt.Errorf("queue: %q is not a queue name", clip(e.Queue))
		}
		if e.Cores < 1 {
			return fmt.Errorf("cores: %d, want ≥ 1", e.Cores)
		}
		if e.WallTime < 0 {
			return fmt.Errorf("wallTime: %d, want ≥ 0 (0 = none requested)", e.WallTime)
		}
	case "estimate":
		switch {
		case e.Job != 0 && (e.Queue != "" || e.Cores != 0 || e.WallTime != 0):
			return fmt.Errorf("queue, cores, wallTime: an estimate of job %d has none (the job has them)", e.Job)
		case e.Job != 0:
		case !validName(e.Queue):
			return fmt.Errorf("queue: %q is not a queue name", clip(e.Queue))
		case e.Cores < 1 || e.WallTime < 1:
			return fmt.Errorf("cores, wallTime: %d, %d, want the probed job's size ≥ 1 and run time ≥ 1 s", e.Cores, e.WallTime)
		}
		if e.Job != 0 && e.Start == 0 && e.Priority > 0 {
			break // the job's priority alone
		}
		if e.Start < 1 || e.Start > maxSpan {
			return fmt.Errorf("start: %d, want Unix seconds in 1–%d", e.Start, int64(maxSpan))
		}
	case "start", "end":
	default:
		return fmt.Errorf("kind: %q, want queue, submit, start, end or estimate", clip(e.Kind))
	}
	return nil
}

// Bounds on an event's fields: times, sizes and durations at most 2^40
// (Unix seconds until the year 36812; a sum of 2^20 of them cannot
// overflow), free-text fields at most 256 bytes, names 64 (validName).
const (
	maxSpan  = 1 << 40
	maxField = 256
)

// allJobs is the pseudo-queue of a whole system in summaries (§2.3).
const allJobs = "all_jobs"

// validName is the service's rule for system and queue names (sysname,
// shared with the Slurm feed, which checks its -system with it).
func validName(s string) bool { return sysname.Valid(s) }
