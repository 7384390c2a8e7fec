package sanitize

import (
	"slices"

	"github.com/batchq/batchq/internal/jobid"
	"github.com/batchq/batchq/swf"
)

// Reordering (thesis §7.4, spec §1.1): simulators consume arrivals in
// submit order, but archive logs are in job-number order and a few jobs
// are logged out of submit order. Reorder sorts by submit time and says
// what it moved, so that nothing changes silently.

// Duplicate is a job number that occurs more than once.
type Duplicate struct {
	ID      int64
	Indices []int // positions in the input
}

// ReorderReport says what Reorder changed.
type ReorderReport struct {
	// OutOfOrder counts jobs submitted before the job logged just before
	// them, of the jobs with a known submit time (the count
	// swf.Stats.OutOfOrder also gives): an unknown one (-1) is not
	// compared, neither as the later job nor as the earlier, nor is a line
	// of a partial execution (status 2, 3 or 4), which repeats its job's
	// submit time.
	OutOfOrder int
	// Moved counts jobs whose position changed.
	Moved int
	// Duplicates lists every job number used more than once, in order of
	// first occurrence. Reorder keeps all of them; job-number filters
	// would match each. A job without a number (below 1, SWF's -1) has
	// none to repeat: the simulator numbers it (sched's rule id_made_up).
	Duplicates []Duplicate
}

// Reorder returns the jobs sorted by submit time (a new slice; ties keep
// their input order, so a sorted log comes back unchanged) and a report.
func Reorder(jobs []swf.Job) ([]swf.Job, ReorderReport) {
	var rep ReorderReport
	idx := make([]int, len(jobs))
	last := int64(-1) // the last known submit time (none yet)
	for i := range idx {
		idx[i] = i
		// As swf.Stats.OutOfOrder: an unknown submit time (-1) is skipped,
		// and the job after it compared with the known one before it (each
		// -1 after a known time was counted, and a job after a -1 never).
		switch s := jobs[i].Submit; {
		case s < 0:
		case s >= last:
			last = s
		case !jobs[i].Status.Partial():
			rep.OutOfOrder++
			last = s
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case jobs[a].Submit < jobs[b].Submit:
			return -1
		case jobs[a].Submit > jobs[b].Submit:
			return 1
		}
		return 0
	})
	out := make([]swf.Job, len(jobs))
	for k, i := range idx {
		out[k] = jobs[i]
		if k != i {
			rep.Moved++
		}
	}
	first := map[int64]int{} // ID → index into rep.Duplicates, or -1-position
	for i := range jobs {
		id := jobs[i].ID
		if jobid.Missing(id) {
			continue
		}
		d, seen := first[id]
		switch {
		case !seen:
			first[id] = -1 - i
		case d < 0:
			rep.Duplicates = append(rep.Duplicates, Duplicate{ID: id, Indices: []int{-1 - d, i}})
			first[id] = len(rep.Duplicates) - 1
		default:
			rep.Duplicates[d].Indices = append(rep.Duplicates[d].Indices, i)
		}
	}
	return out, rep
}
