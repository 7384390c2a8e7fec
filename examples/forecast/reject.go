package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/batchq/batchq/swf"
)

// Reasons a job of the log is rejected before the replay (the keys of
// traceInfo.rejected and of -json's "rejected").
const (
	// rejDuplicate: a later job under a number already read. The
	// predictors key what they keep by job number, so a second job under
	// it would be mixed up with the first (IBL refuses it outright); real
	// logs repeat numbers when a scheduler's counter wraps or two logs are
	// joined. The first job keeps the number.
	rejDuplicate = "duplicate_id"
)

// reject returns the jobs the replay can take, in log order, and how many
// of the others it dropped for each reason.
func reject(jobs []swf.Job) ([]swf.Job, map[string]int) {
	out := jobs[:0:0]
	why := map[string]int{}
	seen := make(map[int64]bool, len(jobs))
	for _, j := range jobs {
		if seen[j.ID] {
			why[rejDuplicate]++
			continue
		}
		seen[j.ID] = true
		out = append(out, j)
	}
	return out, why
}

// rejectedText is the rejections as "3 duplicate_id, 1 out_of_range", in
// a fixed order.
func rejectedText(why map[string]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(why)) {
		parts = append(parts, fmt.Sprintf("%d %s", why[k], k))
	}
	return strings.Join(parts, ", ")
}
