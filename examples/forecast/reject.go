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
	// rejRange: a size or time out of range, corrupt (cli.InRange: above
	// 2^40 processors or seconds). IBL bounds its features so its sums
	// cannot wrap (2^40 cores and seconds) and keeps times in float64.
	rejRange = "out of range"
)

// maxSize bounds a job's size and the machine's, in processors.
const maxSize = cli.MaxSize

// reject returns the jobs the replay can take, in log order, and how many
// of the others it dropped for each reason. jobs is reused.
func reject(jobs []swf.Job) ([]swf.Job, map[string]int) {
	why := map[string]int{}
	jobs, dups := cli.FirstIDs(jobs)
	if dups > 0 {
		why[rejDuplicate] = dups
	}
	jobs, far := cli.InRange(jobs)
	if far > 0 {
		why[rejRange] = far
	}
	return jobs, why
}
