package karnak

import (
	"context"
	"slices"
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

// A store replayed before user-less jobs lost their names ("u-1", "g-1",
// "x-1" on every submit of a job with SWF's −1) resumes with the same
// trace: its last stored event, a submit of such a job, is this trace's
// event of that job under the names it had then (checked: fails without
// legacyNames in ReplayEvents, "not one of this trace's"). A history
// that differs otherwise is still refused.
func TestReplayResumeOldNames(t *testing.T) {
	jobs := make([]swf.Job, 6)
	for i := range jobs {
		j := swf.NewJob()
		j.ID, j.Submit, j.Wait, j.RunTime, j.AllocProcs, j.ReqTime = int64(i+1), int64(100*i), 10, 60, 1, 600
		if i%2 == 1 {
			j.User, j.Group, j.Executable = 3, 4, 5
		}
		jobs[i] = j
	}
	evs, _ := TraceEvents(&swf.Header{}, jobs, "s")
	old := slices.Clone(evs)
	last := -1
	for i := range old {
		if old[i].Kind == "submit" {
			old[i] = legacyNames(old[i])
			if old[i].Job == 3 {
				last = i
			}
		}
	}
	if last < 0 || old[last].User != "u-1" || old[last].Name != "x-1" {
		t.Fatalf("no old-style submit of job 3: %+v", old)
	}
	for _, c := range []struct {
		mutate func(*Event)
		ok     bool
	}{{func(*Event) {}, true}, {func(e *Event) { e.WallTime-- }, false}} {
		st := &MemStore{}
		s, err := NewService(st, nil)
		if err != nil {
			t.Fatal(err)
		}
		stored := slices.Clone(old[:last+1])
		c.mutate(&stored[last])
		if err := s.Ingest(stored); err != nil {
			t.Fatal(err)
		}
		if s, err = NewService(st, nil); err != nil { // restart, upgraded
			t.Fatal(err)
		}
		err = s.ReplayEvents(context.Background(), evs, "s", 1e9, func(string, ...any) {})
		if (err == nil) != c.ok {
			t.Errorf("resume (same history %v): %v", c.ok, err)
		}
		if c.ok && st.Len() != len(evs) {
			t.Errorf("stored %d of %d events", st.Len(), len(evs))
		}
	}
}
