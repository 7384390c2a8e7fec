package cli

import (
	"slices"
	"testing"

	"github.com/batchq/batchq/internal/jobid"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

func TestReasons(t *testing.T) {
	rep := sanitize.Report{Excluded: []sanitize.Excluded{{Reason: sanitize.NoSize}, {Reason: sanitize.DuplicateID}, {Reason: sanitize.NoSize}}}
	if got, want := Reasons(ByReason(rep)), "1 duplicate ID, 2 no size"; got != want {
		t.Errorf("Reasons = %q, want %q", got, want)
	}
	if got := ReasonKeys(ByReason(rep)); len(got) != 2 || got["duplicate_id"] != 1 || got["no_size"] != 2 {
		t.Errorf("ReasonKeys = %v, want duplicate_id 1 and no_size 2", got)
	}
	if got := Reasons(ByReason(sanitize.Report{})); got != "" {
		t.Errorf("Reasons of none = %q, want \"\"", got)
	}
}

func TestFirstIDs(t *testing.T) {
	jobs := []swf.Job{{ID: 1, Submit: 0}, {ID: 2, Submit: 1}, {ID: 1, Submit: 2}, {ID: 3, Submit: 3}, {ID: 2, Submit: 4}}
	kept, dups := FirstIDs(jobs)
	if dups != 2 || len(kept) != 3 || kept[0].Submit != 0 || kept[1].Submit != 1 || kept[2].ID != 3 {
		t.Errorf("FirstIDs: %v, %d left out; want jobs 1, 2, 3 as first read and 2 left out", kept, dups)
	}
}

// Jobs without a number are no duplicates of one another: FirstIDs keeps
// them (it kept the first -1 and left the others out as duplicates), and
// MadeUpIDs numbers them 10^18 + n by their position, as sched does.
func TestNoNumberNoDuplicate(t *testing.T) {
	jobs := []swf.Job{{ID: -1}, {ID: 2}, {ID: -1}, {ID: 0}, {ID: 2}, {ID: -5}}
	kept, dups := FirstIDs(slices.Clone(jobs))
	if dups != 1 || len(kept) != 5 {
		t.Errorf("FirstIDs: %v, %d left out; want the 4 without a number and the first 2 kept, 1 left out", kept, dups)
	}
	if n := MadeUpIDs(jobs); n != 4 {
		t.Errorf("MadeUpIDs numbered %d jobs, want 4", n)
	}
	var ids []int64
	for _, j := range jobs {
		ids = append(ids, j.ID)
	}
	b := int64(jobid.Base)
	if want := []int64{b + 1, 2, b + 3, b + 4, 2, b + 6}; !slices.Equal(ids, want) {
		t.Errorf("MadeUpIDs: %v, want %v", ids, want)
	}
}

// A job at the bound is kept; one second or processor above it, in any
// field, is left out and counted under sanitize's reason (qbets counted
// them as one out_of_range_jobs, where simulate and forecast tell
// larger_than_machine from time_out_of_range); the rest keep their order.
func TestInRange(t *testing.T) {
	ok := swf.Job{ID: 1, Submit: sanitize.MaxTime, Wait: sanitize.MaxTime, RunTime: sanitize.MaxTime, ReqTime: sanitize.MaxTime, AllocProcs: MaxSize}
	jobs := []swf.Job{ok}
	for i, f := range []func(*swf.Job){
		func(j *swf.Job) { j.Submit++ }, func(j *swf.Job) { j.Wait = 1<<63 - 1 }, func(j *swf.Job) { j.RunTime++ },
		func(j *swf.Job) { j.ReqTime++ }, func(j *swf.Job) { j.AllocProcs++ },
	} {
		j := ok
		j.ID = int64(i + 2)
		f(&j)
		jobs = append(jobs, j)
	}
	jobs = append(jobs, swf.Job{ID: 9, Submit: -1, Wait: -1, RunTime: -1, ReqTime: -1, AllocProcs: -1})
	kept, far := InRange(jobs)
	if got := Reasons(far); got != "1 larger than machine, 4 time out of range" || len(kept) != 2 || kept[0].ID != 1 || kept[1].ID != 9 {
		t.Errorf("kept %v, left out %q; want jobs 1 and 9, 1 larger than machine, 4 time out of range", kept, got)
	}
}

// Every command says "no sane job" the same way, with the noun's number
// right: tsafrir said "(1 records: …)", coalloc "no sane jobs (1 read: …)".
func TestNoSaneJob(t *testing.T) {
	for _, c := range []struct {
		read int
		by   map[string]int
		want string
	}{
		{0, nil, "f: no job lines"}, // an empty log, as every command says it
		{1, map[string]int{"no submit time": 1}, "f: no sane job (1 record: 1 no submit time)"},
		{3, map[string]int{"no size": 1, "duplicate ID": 2}, "f: no sane job (3 records: 2 duplicate ID, 1 no size)"},
	} {
		if got := NoSaneJob("f", c.read, c.by).Error(); got != c.want {
			t.Errorf("NoSaneJob(%d, %v) = %q; want %q", c.read, c.by, got, c.want)
		}
	}
}
