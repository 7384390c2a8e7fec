package slurm_test

import (
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/slurm"
	"github.com/batchq/batchq/swf"
)

// TestBackfillOverdue: a running job past its time limit (OverTimeLimit
// lets it run on) is planned to end at its limit plus OverTimeLimit, not
// at now. On 10 processors job 1 (6 of them from 3, limit 100 s,
// OverTimeLimit 60 s: planned to end at 103, killed at 163, ends at 153)
// is overdue from 103 on; job 2 (8 processors) waits for it, planned from
// 163; job 3 (4
// processors, 20 s) fits in the 4 free processors before then and is
// backfilled at once. A plan that took job 1's processors as free at now
// (its end, start + limit, is before now) would reserve them for job 2
// from now+1 and leave job 3 no room until job 2's reservation ends.
func TestBackfillOverdue(t *testing.T) {
	site := slurm.Config{OverTimeLimit: 60, BackfillInterval: 10}
	jobs := []swf.Job{
		mkJob(1, 0, 1, 6, 150, 100),
		mkJob(2, 105, 1, 8, 100, 100),
		mkJob(3, 106, 2, 4, 20, 20),
	}
	res, _ := run(t, site, sched.Config{MachineSize: 10}, jobs)
	s := starts(res)
	if s[1] > 10 || s[3] >= 150 || s[2] < 150 {
		t.Errorf("jobs 1, 2, 3 start at %d, %d, %d; want job 3 backfilled beside overdue job 1 (before 150), job 2 after job 1", s[1], s[2], s[3])
	}
}
