package sched_test

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"github.com/batchq/batchq/internal/jobid"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// unnumbered is a log of n valid jobs on 16 processors whose job number
// is id on every line (SWF's -1, "missing", as converted logs carry it),
// submitted 60 s apart, so that several wait and run at once.
func unnumbered(n int, id int64) []swf.Job {
	jobs := make([]swf.Job, n)
	for i := range jobs {
		jobs[i] = job(id, int64(60*i), int64(300+37*i%500), int64(1+i%8), 1000)
	}
	return jobs
}

// A log whose lines carry no job number (-1, 0 or below) is simulated
// whole: each job numbered 10^18 + n, n its line's position, counted
// under id_made_up; it was 1 job simulated and the others rejected as
// "duplicate ID". The caller's lines are not written, and the schedule
// written as SWF reads back (a negative number would not: SWF's fields
// are -1 or above).
func TestNoJobNumberSimulated(t *testing.T) {
	for _, id := range []int64{-1, 0, -7} {
		for _, p := range sched.Presets() {
			jobs := unnumbered(20, id)
			res, err := sched.Run(context.Background(), p.New(16), jobs)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Rejected.Excluded) != 0 || len(res.Records) != 20 {
				t.Fatalf("ID %d, %s: %d simulated, rejected %v; want all 20 simulated", id, p.Name, len(res.Records), res.Rejected.Excluded)
			}
			if err := res.Check(); err != nil {
				t.Fatalf("ID %d, %s: %v", id, p.Name, err)
			}
			if n := res.Changed()["id_made_up"]; n != 20 {
				t.Errorf("ID %d, %s: id_made_up counts %d jobs, want 20", id, p.Name, n)
			}
			for i := range res.Records {
				r := &res.Records[i]
				if r.Job.ID != jobid.MadeUp(int64(i+1)) || !slices.Contains(r.Changes(), "id_made_up") || r.End < 0 {
					t.Fatalf("ID %d, %s: record %d is job %d (changes %v, end %d), want job %d made up and run", id, p.Name, i, r.Job.ID, r.Changes(), r.End, jobid.MadeUp(int64(i+1)))
				}
			}
			var b bytes.Buffer
			if err := res.WriteSWF(&b, nil); err != nil {
				t.Fatal(err)
			}
			if back, err := swf.NewReader(&b).ReadAll(); err != nil || len(back) != 20 || back[19].ID != jobid.MadeUp(20) {
				t.Fatalf("ID %d, %s: the schedule as SWF reads back as %d jobs, %v", id, p.Name, len(back), err)
			}
			for i := range jobs {
				if jobs[i].ID != id {
					t.Fatalf("ID %d: the caller's line %d now has ID %d", id, i, jobs[i].ID)
				}
			}
		}
	}
}

// Made-up numbers never clash with a real one, whichever comes first, nor
// with another made-up one; two live jobs under one real number are still
// a duplicate, and the rejected line keeps its own number in the report.
// A real number past 10^18 (no real log's) that a live job has, made up
// or not, is a duplicate too, whichever comes first.
func TestMadeUpIDsAndRealDuplicates(t *testing.T) {
	jobs := []swf.Job{
		job(3, 0, 500, 1, 1000),                 // real 3
		job(-1, 0, 500, 1, 1000),                // line 2: B+2 (B = 10^18)
		job(-2, 0, 500, 1, 1000),                // line 3: B+3 (below 1 is no number, -2 none either)
		job(-1, 0, 500, 1, 1000),                // line 4: B+4
		job(3, 10, 500, 1, 1000),                // real 3 again while the first is live: duplicate
		job(0, 20, 500, 1, 1000),                // line 6: B+6
		job(2, 30, 500, 1, 1000),                // real 2, below the largest real ID
		job(jobid.MadeUp(4), 40, 500, 1, 1000),  // a real B+4 while line 4's runs: duplicate
		job(jobid.MadeUp(9), 40, 500, 1, 1000),  // a real B+9, line 9's: taken as it is
		job(jobid.MadeUp(12), 40, 500, 1, 1000), // a real B+12 (hostile)
		job(5, 40, 500, 1, 1000),
		job(-1, 50, 500, 1, 1000), // line 12: B+12, live: duplicate
	}
	res, err := sched.Run(context.Background(), sched.EASY(16), jobs)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Check(); err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for i := range res.Records {
		ids = append(ids, res.Records[i].Job.ID)
	}
	b := int64(jobid.Base)
	if want := []int64{3, b + 2, b + 3, b + 4, b + 6, 2, b + 9, b + 12, 5}; !slices.Equal(ids, want) {
		t.Errorf("simulated jobs %v, want %v", ids, want)
	}
	want := []sanitize.Excluded{{Index: 4, ID: 3, Reason: sanitize.DuplicateID}, {Index: 7, ID: b + 4, Reason: sanitize.DuplicateID},
		{Index: 11, ID: -1, Reason: sanitize.DuplicateID}}
	if !slices.Equal(res.Rejected.Excluded, want) {
		t.Errorf("rejected %v, want %v", res.Rejected.Excluded, want)
	}
	if n := res.Changed()["id_made_up"]; n != 4 {
		t.Errorf("id_made_up %d, want 4", n)
	}
}

// Loaded piece by piece (as examples/simulate streams a log), submitted
// one by one, or kept as a summary only, the jobs get the same numbers
// and the same schedule as loaded whole: n counts every line given to
// the Sim, rejected ones too. A made-up number names its job to Cancel.
func TestMadeUpIDsPieceByPiece(t *testing.T) {
	jobs := unnumbered(30, -1)
	jobs[5].RunTime = -1 // rejected (no run time): still line 6
	whole, err := sched.Run(context.Background(), sched.EASY(16), jobs)
	if err != nil {
		t.Fatal(err)
	}
	if whole.Records[5].Job.ID != jobid.MadeUp(7) || len(whole.Records) != 29 {
		t.Fatalf("the job after the rejected line 6 is %d of %d jobs, want %d of 29", whole.Records[5].Job.ID, len(whole.Records), jobid.MadeUp(7))
	}
	s, err := sched.New(sched.EASY(16))
	if err != nil {
		t.Fatal(err)
	}
	for from := 0; from < len(jobs); from += 7 {
		if err := s.Load(jobs[from:min(from+7, len(jobs))]); err != nil {
			t.Fatal(err)
		}
	}
	pieces, err := s.Finish()
	if err != nil {
		t.Fatal(err)
	}
	sub, err := sched.New(sched.EASY(16))
	if err != nil {
		t.Fatal(err)
	}
	for i := range jobs {
		if err := sub.RunUntil(jobs[i].Submit); err != nil {
			t.Fatal(err)
		}
		sub.Submit(jobs[i])
	}
	submitted, err := sub.Finish()
	if err != nil {
		t.Fatal(err)
	}
	cfg := sched.EASY(16)
	cfg.SummaryOnly = true
	folded, err := sched.Run(context.Background(), cfg, jobs)
	if err != nil {
		t.Fatal(err)
	}
	if folded.Summary != whole.Summary || folded.Changed()["id_made_up"] != 29 {
		t.Errorf("SummaryOnly: %+v, id_made_up %d; want %+v, 29", folded.Summary, folded.Changed()["id_made_up"], whole.Summary)
	}
	for _, other := range []*sched.Result{pieces, submitted} {
		if len(other.Records) != len(whole.Records) {
			t.Fatalf("%d records, want %d", len(other.Records), len(whole.Records))
		}
		for i := range whole.Records {
			a, b := &whole.Records[i], &other.Records[i]
			if a.Job.ID != b.Job.ID || a.Start != b.Start || a.End != b.End {
				t.Fatalf("record %d: job %d [%d, %d], want job %d [%d, %d]", i, b.Job.ID, b.Start, b.End, a.Job.ID, a.Start, a.End)
			}
		}
	}

	c, err := sched.New(sched.EASY(1))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Load(unnumbered(3, -1)); err != nil {
		t.Fatal(err)
	}
	if err := c.RunUntil(1); err != nil {
		t.Fatal(err)
	}
	if c.Cancel(-1) || !c.Cancel(jobid.MadeUp(1)) || c.Cancel(jobid.MadeUp(1)) {
		t.Error("the running job numbered 10^18 + 1 not cancelled once under that number, or cancelled as -1")
	}
}

// Jobs without a number submitted at one instant arrive after the
// numbered ones, in their lines' order, as numbered: FCFS on one
// processor runs jobs 2 and 5, then lines 1, 3, 4 and 6.
func TestMadeUpIDsArriveInLineOrder(t *testing.T) {
	jobs := make([]swf.Job, 6)
	for i := range jobs {
		jobs[i] = job(-1, 0, 10, 1, 10)
	}
	jobs[1].ID, jobs[4].ID = 2, 5
	fcfs, _ := sched.LookupPreset("FCFS")
	res, err := sched.Run(context.Background(), fcfs.New(1), jobs)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Records) != 6 {
		t.Fatalf("%d jobs simulated, want 6", len(res.Records))
	}
	for i, want := range []int64{20, 0, 30, 40, 10, 50} {
		if r := &res.Records[i]; r.Start != want {
			t.Errorf("job %d (line %d) started at %d, want %d", r.Job.ID, i+1, r.Start, want)
		}
	}
}
