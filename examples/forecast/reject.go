package main

import (
	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/swf"
)

// Reasons a job of the log is rejected before the replay (the keys of
// traceInfo.rejected; -json's "rejected" has them with _ for spaces, as
// every command's).
const (
	// rejDuplicate: a later job under a number already read. The
	// predictors key what they keep by job number, so a second job under
	// it would be mixed up with the first (IBL refuses it outright); real
	// logs repeat numbers when a scheduler's counter wraps or two logs are
	// joined. The first job keeps the number.
	rejDuplicate = "duplicate ID" // sanitize.DuplicateID, as the simulators name it
	// rejRange: a size or estimate above 2^40, or a submit, wait or run
	// time that puts the job's end beyond 2^53 s. SWF allows any int64;
	// IBL bounds its features so its sums cannot wrap (2^40 cores and
	// seconds) and keeps times in float64 (exact to 2^53), and the
	// replay's start and end (submit + wait + run time) would wrap past
	// 2^63. No real log comes near: such a field is corrupt.
	rejRange = "out of range"
)

// Bounds of rejRange.
const (
	maxSize = 1 << 40
	maxTime = 1 << 53
)

// inRange reports whether the predictors and the replay can take j.
func inRange(j *swf.Job) bool {
	if j.Size() > maxSize || j.ReqTime > maxSize {
		return false
	}
	// Each below 2^53, so the sum cannot wrap.
	if j.Submit > maxTime || j.Wait > maxTime || j.RunTime > maxTime {
		return false
	}
	return j.Submit+max(j.Wait, 0)+max(j.RunTime, 0) <= maxTime
}

// reject returns the jobs the replay can take, in log order, and how many
// of the others it dropped for each reason. jobs is reused.
func reject(jobs []swf.Job) ([]swf.Job, map[string]int) {
	why := map[string]int{}
	jobs, dups := cli.FirstIDs(jobs)
	if dups > 0 {
		why[rejDuplicate] = dups
	}
	out := jobs[:0]
	for _, j := range jobs {
		if !inRange(&j) {
			why[rejRange]++
			continue
		}
		out = append(out, j)
	}
	return out, why
}
