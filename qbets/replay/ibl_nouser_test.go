package replay

import (
	"testing"

	"github.com/batchq/batchq/qbets/ibl"
	"github.com/batchq/batchq/swf"
)

// A job without a user, group or executable (SWF's −1) has no such
// feature in IBL's queries, not the value "u-1" every user-less job
// shares: two user-less jobs waiting are not one user's, so the later
// one has no jobs of its user ahead (checked: fails without the fix in
// iblJob, user "u-1" known and 1 job of the user ahead).
func TestIBLNoUser(t *testing.T) {
	var s ibl.System
	for id := int64(1); id <= 2; id++ {
		j := swf.NewJob()
		j.ID, j.Submit, j.AllocProcs, j.ReqTime = id, id*10, 4, 600
		if err := s.Submit(iblJob(&j)); err != nil {
			t.Fatal(err)
		}
	}
	v, ok := s.Queued(2, 100)
	if !ok {
		t.Fatal("job 2 not waiting")
	}
	for i, what := range map[int]string{0: "name", 1: "user", 2: "project"} {
		if v[i].Known {
			t.Errorf("%s of a job without one: known %q", what, v[i].S)
		}
	}
	if v[8].F != 0 || v[9].F != 0 {
		t.Errorf("user's jobs ahead of a user-less job: %g (work %g), want 0", v[8].F, v[9].F)
	}
	if !v[3].Known || v[3].S != "q-1" {
		t.Errorf("queue of a trace without queues: %+v, want the one queue q-1", v[3])
	}
	if v[6].F != 1 {
		t.Errorf("jobs ahead: %g, want 1", v[6].F)
	}
	// User, group and executable 0 are values.
	j := swf.NewJob()
	j.ID, j.Submit, j.AllocProcs, j.ReqTime, j.User, j.Group, j.Executable = 3, 30, 4, 600, 0, 0, 0
	if got := iblJob(&j); got.User != "u0" || got.Project != "g0" || got.Name != "x0" {
		t.Errorf("user, group, executable 0: %q %q %q", got.User, got.Project, got.Name)
	}
}
