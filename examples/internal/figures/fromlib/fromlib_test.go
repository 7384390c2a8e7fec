package fromlib

import (
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/activity"

	"github.com/batchq/batchq/examples/internal/figures"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/varq"
)

// TestActivity builds a log of 20 quiet weeks and one week in which user 7
// submits 600 identical jobs, and checks that the figure data has the
// weeks, the user's line and a shaded flurry in that week, and renders.
func TestActivity(t *testing.T) {
	var jobs []swf.Job
	id := int64(1)
	add := func(submit, user, size int64) {
		jobs = append(jobs, swf.Job{ID: id, Submit: submit, Wait: 0, RunTime: 60, AllocProcs: size, ReqProcs: size, ReqTime: 300, User: user, Status: swf.StatusCompleted,
			AvgCPUTime: -1, UsedMemory: -1, ReqMemory: -1, Group: -1, Executable: -1, Queue: -1, Partition: -1, PrecedingJob: -1, ThinkTime: -1})
		id++
	}
	for w := int64(0); w < 20; w++ {
		for k := int64(0); k < 50; k++ {
			add(w*activity.Week+k*3600, k%10, 1+k%8)
		}
		if w == 12 {
			for k := int64(0); k < 600; k++ {
				add(w*activity.Week+k*600, 7, 32)
			}
		}
	}
	a, cands, ok, err := Activity(jobs, "test log", sanitize.FlurryConfig{}, 3)
	if err != nil || !ok {
		t.Fatalf("ok %v, err %v", ok, err)
	}
	if len(a.Jobs) != 20 || len(cands) == 0 || len(a.Users) == 0 || a.Users[0].User != "7" || a.Users[0].Jobs[12] < 600 {
		t.Fatalf("weeks %d, candidates %d, users %+v", len(a.Jobs), len(cands), a.Users)
	}
	found := false
	for _, f := range a.Flurries {
		found = found || (f.User == "7" && f.From <= 12 && f.To >= 12)
	}
	if !found {
		t.Errorf("no flurry of user 7 over week 12: %+v", a.Flurries)
	}
	if _, err := figures.Activities(t.TempDir(), "activity", a); err != nil {
		t.Error(err)
	}
	for i := range jobs {
		jobs[i].User = -1
	}
	if _, _, ok, err := Activity(jobs, "no users", sanitize.FlurryConfig{}, 3); ok || err != nil {
		t.Errorf("a log without users: ok %v, err %v", ok, err)
	}
}

func TestTrajectory(t *testing.T) {
	r := varq.Request{Nodes: 4, Walltime: 3600, Start: 3600}
	traj := varq.ProbabilityTrajectory{{Submit: 0, Prob: 0.9}, {Submit: 1800, Prob: 0.6}}
	tr := Trajectory("x", 0, r, traj, traj.PlanLatest(r, 0.5), 0.5)
	if tr.Chosen != 1800 || len(tr.At) != 2 {
		t.Errorf("chosen %d, %d points", tr.Chosen, len(tr.At))
	}
	if tr := Trajectory("x", 0, r, traj, varq.Plan{}, 0.5); tr.Chosen != -1 {
		t.Errorf("NOT_POSSIBLE plan drawn at %d", tr.Chosen)
	}
}

// A submit time of 2^63 − 1 among a log's jobs panicked (makeslice: len
// out of range) in replay -out, then refused the whole log (its
// submissions spanned more than 100 years), after every simulation: a
// submit past 2^40 s, which the simulators reject too, is left out and
// counted in the title, and the caller's jobs are not changed. A span
// above 100 years within 2^40 s is still an error (which end is wrong is
// not known), as is a log whose every job was left out.
func TestActivityCorruptSpan(t *testing.T) {
	jobs := []swf.Job{{ID: 1, Submit: 0, User: 1, AllocProcs: 1}, {ID: 2, Submit: 1<<63 - 1000, User: 1, AllocProcs: 1}, {ID: 3, Submit: 3600, User: 1, AllocProcs: 1}}
	a, _, ok, err := Activity(jobs, "far", sanitize.FlurryConfig{}, 5)
	if err != nil || !ok || len(a.Jobs) != 1 || a.Jobs[0] != 2 {
		t.Fatalf("ok %v, err %v, weeks %v; want one week of 2 jobs", ok, err, a.Jobs)
	}
	if want := "; jobs left out: 1 time out of range (a submit time past 2^40 s)"; !strings.HasSuffix(a.Title, want) {
		t.Errorf("title %q, want it to end %q", a.Title, want)
	}
	if len(jobs) != 3 || jobs[1].ID != 2 || jobs[2].ID != 3 {
		t.Errorf("the caller's jobs changed: %+v", jobs)
	}
	a, _, _, err = Activity(jobs[:1:1], "near", sanitize.FlurryConfig{}, 5)
	if err != nil || strings.Contains(a.Title, "left out") {
		t.Errorf("no job left out: title %q, err %v", a.Title, err)
	}
	jobs[1].Submit = 200 * 365 * 86400 // within 2^40 s
	if _, _, _, err := Activity(jobs, "span", sanitize.FlurryConfig{}, 5); err == nil || !strings.Contains(err.Error(), "more than 100 years") {
		t.Errorf("got %v, want an error naming the span", err)
	}
	// A job of unknown submit time (-1) was binned at -1: the weeks began
	// in 1970, the log's after 52 empty ones, and the job was in week 0.
	late := []swf.Job{{ID: 1, Submit: -1, User: 1, AllocProcs: 1}, {ID: 2, Submit: 366 * 86400, User: 1, AllocProcs: 1}, {ID: 3, Submit: 366*86400 + 3600, User: 1, AllocProcs: 1}}
	a, _, ok, err = Activity(late, "unknown", sanitize.FlurryConfig{}, 5)
	if err != nil || !ok || len(a.Jobs) != 1 || a.Jobs[0] != 2 {
		t.Fatalf("ok %v, err %v, weeks %v; want one week of 2 jobs", ok, err, a.Jobs)
	}
	if want := "; jobs left out: 1 no submit time (-1)"; !strings.HasSuffix(a.Title, want) {
		t.Errorf("title %q, want it to end %q", a.Title, want)
	}
	if late[0].Submit != -1 || late[0].ID != 1 {
		t.Errorf("the caller's jobs changed: %+v", late)
	}
	all := []swf.Job{{ID: 1, Submit: 1 << 62, User: 1, AllocProcs: 1}}
	if _, _, _, err := Activity(all, "all far", sanitize.FlurryConfig{}, 5); err == nil || !strings.Contains(err.Error(), "no job to bin: jobs left out: 1 time out of range") {
		t.Errorf("got %v, want an error counting the job left out", err)
	}
}
