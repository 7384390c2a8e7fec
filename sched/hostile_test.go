package sched_test

import (
	"testing"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// A job whose ID is held by a job still to arrive, waiting or running is
// rejected and counted, so Cancel names one job: here job 1 runs 0–1000
// on half the machine; a second "job 1" would start at 10 and end at 15,
// and Cancel(1) at 20 would then miss the running job.
func TestDuplicateIDRejected(t *testing.T) {
	s, err := sched.New(sched.EASY(10))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Load([]swf.Job{job(1, 0, 1000, 5, 1000), job(1, 10, 5, 5, 5)}); err != nil {
		t.Fatal(err)
	}
	s.At(12, func(int64) {
		if s.Submit(job(1, -1, 5, 5, 5)) {
			t.Error("Submit of a third job 1 accepted while job 1 runs")
		}
	})
	s.At(20, func(int64) {
		if !s.Cancel(1) {
			t.Error("Cancel(1) at 20 missed the running job 1")
		}
	})
	res, err := s.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if n := res.Rejected.Count(sanitize.DuplicateID); n != 2 || res.Summary.Rejected != 2 {
		t.Errorf("%d rejected as duplicate ID (summary %d), want 2", n, res.Summary.Rejected)
	}
	if len(res.Records) != 1 || !res.Records[0].Cancelled || res.Records[0].End != 20 {
		t.Errorf("records %+v, want job 1 cancelled at 20", res.Records)
	}
	// Once job 1 has ended, its ID is free for a later Load or Submit.
	s2, _ := sched.New(sched.EASY(10))
	if err := s2.Load([]swf.Job{job(1, 0, 5, 5, 5)}); err != nil {
		t.Fatal(err)
	}
	if err := s2.RunUntil(10); err != nil {
		t.Fatal(err)
	}
	if !s2.Submit(job(1, -1, 5, 5, 5)) {
		t.Error("Submit of job 1 after job 1 ended rejected")
	}
	if err := s2.Load([]swf.Job{job(1, 20, 5, 5, 5)}); err != nil {
		t.Fatal(err)
	}
	res2, err := s2.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if len(res2.Records) != 2 || res2.Rejected.Count(sanitize.DuplicateID) != 1 {
		t.Errorf("%d records, %d duplicates; want 2 and 1 (the Load while the submitted job 1 runs)",
			len(res2.Records), res2.Rejected.Count(sanitize.DuplicateID))
	}
}

// IDs that do not rise are checked through the records: unique ones are
// all kept, and a repeat of a held one is rejected.
func TestDuplicateIDNotRising(t *testing.T) {
	s, err := sched.New(sched.EASY(10))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Load([]swf.Job{job(5, 0, 100, 2, 100), job(3, 1, 100, 2, 100), job(4, 2, 100, 2, 100), job(3, 3, 1, 2, 1)}); err != nil {
		t.Fatal(err)
	}
	s.At(50, func(int64) {
		if s.Submit(job(4, -1, 5, 1, 5)) {
			t.Error("Submit of job 4 accepted while job 4 runs")
		}
		if !s.Submit(job(2, -1, 5, 1, 5)) {
			t.Error("Submit of a new job 2 rejected")
		}
	})
	res, err := s.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Records) != 4 || res.Rejected.Count(sanitize.DuplicateID) != 2 {
		t.Errorf("%d records, %d duplicates; want 4 and 2", len(res.Records), res.Rejected.Count(sanitize.DuplicateID))
	}
}
