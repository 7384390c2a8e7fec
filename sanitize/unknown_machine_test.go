package sanitize_test

import (
	"testing"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

// A machine size of 0 (or below) is an unknown machine, as swf's
// Header.MachineSize gives it for a header without MaxProcs: the size
// test is skipped and the others still apply. Sane(jobs, 0) marked every
// job "larger than machine".
func TestSaneUnknownMachine(t *testing.T) {
	mk := func(id, size, run int64) swf.Job {
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.AllocProcs = id, 0, run, size
		return j
	}
	jobs := []swf.Job{mk(1, 4, 100), mk(2, 1<<30, 100), mk(3, 4, -1), mk(4, 0, 100)}
	for _, size := range []int64{0, -1} {
		kept, rep := sanitize.Sane(jobs, size)
		if len(kept) != 2 || rep.Count(sanitize.LargerThanMachine) != 0 ||
			rep.Count(sanitize.NoRunTime) != 1 || rep.Count(sanitize.NoSize) != 1 {
			t.Errorf("machine %d: kept %d, report %+v; want jobs 1 and 2 kept, one without run time, one without size", size, len(kept), rep)
		}
	}
	if _, rep := sanitize.Sane(jobs, 16); rep.Count(sanitize.LargerThanMachine) != 1 {
		t.Errorf("machine 16: %+v, want job 2 larger than the machine", rep)
	}
}
