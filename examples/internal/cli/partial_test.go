package cli

import (
	"testing"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

// A checkpointed job's partial-execution lines (status 2, 3, 4, under its
// summary line's number) are no duplicates for FirstIDs, and InRange
// leaves them out under sanitize.PartialExecution's name, as every
// simulation does: forecast counted them as duplicate IDs, qbets scored
// each one's requeue wait as a job's.
func TestPartialLinesLeftOut(t *testing.T) {
	line := func(status swf.Status) swf.Job {
		j := swf.NewJob()
		j.ID, j.Submit, j.Wait, j.RunTime, j.AllocProcs, j.Status = 1, 0, 10, 100, 4, status
		return j
	}
	jobs := []swf.Job{line(swf.StatusCompleted), line(swf.StatusPartial), line(swf.StatusLastFail), line(swf.StatusLastPart)}
	jobs[3].ID = 2 // a partial line without its summary line is one too
	kept, dups := FirstIDs(jobs)
	if dups != 0 || len(kept) != 4 {
		t.Fatalf("FirstIDs: %d kept, %d duplicates; want 4 kept, none", len(kept), dups)
	}
	kept, why := InRange(kept)
	if len(kept) != 1 || kept[0].Status != swf.StatusCompleted || len(why) != 1 || why[sanitize.PartialExecution.String()] != 3 {
		t.Errorf("InRange: %d kept, left out %v; want the summary line kept, 3 partial execution", len(kept), why)
	}
}
