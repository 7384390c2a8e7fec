package karnak

import (
	"testing"

	"github.com/batchq/batchq/swf"
)

// A job of an SWF trace without a user, group or executable (−1) is an
// event without them, not one of user "u-1" shared by every such job;
// user 0 is a user (checked: fails without the fix in traceEvents).
func TestTraceEventsNoUser(t *testing.T) {
	jobs := make([]swf.Job, 2)
	for i := range jobs {
		j := swf.NewJob()
		j.ID, j.Submit, j.Wait, j.RunTime, j.AllocProcs, j.ReqTime, j.Queue = int64(i+1), 0, 10, 60, 1, 600, 1
		jobs[i] = j
	}
	jobs[1].User, jobs[1].Group, jobs[1].Executable = 0, 0, 0
	evs, _ := TraceEvents(&swf.Header{}, jobs, "s")
	got := map[int64][3]string{}
	for _, e := range evs {
		if e.Kind == "submit" {
			got[e.Job] = [3]string{e.User, e.Project, e.Name}
		}
	}
	if got[1] != [3]string{} {
		t.Errorf("job without user, group, executable: %q, want none", got[1])
	}
	if got[2] != [3]string{"u0", "g0", "x0"} {
		t.Errorf("job of user, group, executable 0: %q", got[2])
	}
}

// A job without a user has no history of its own in the forecast's run
// times: all users' mean predicts it, and user-less jobs that ended teach
// that mean only, not a user "" every such job shares (checked: fails
// without the fix in userOf, 100 s, the pooled user's ratio 1/10).
func TestRunWindowNoUser(t *testing.T) {
	w := newRunWindow(10)
	w.add(userOf(""), 600, 6000, 1)    // a user-less job ran 1/10
	w.add(userOf("u7"), 6000, 6000, 2) // user u7 its whole limit
	j := swf.NewJob()
	j.ReqTime, j.User = 1000, userOf("")
	// All users' mean: exp(log(1/10)/2) of 1000 s, 316 s.
	if p := w.Predict(&j, 0); p != 316 {
		t.Errorf("a user-less job: %d s, want all users' 316", p)
	}
	// The ring evicts user-less jobs as it does others.
	for i := range 12 {
		w.add(userOf(""), 600, 6000, int64(3+i))
	}
	if w.all.n != 10 {
		t.Errorf("window of 10: all users' mean over %d jobs", w.all.n)
	}
}
