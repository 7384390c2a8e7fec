package sched_test

import (
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// TestSummaryOnlyLargeInstant: more jobs than the fold appends at a time
// (32) end at one instant, in the reverse of their record order (SJF
// starts the later, shorter-estimated ones first, all at the blocker's
// end, and they end together), with waits and estimates that make the
// slowdowns and accuracies fractions whose float sums depend on their
// order. The fold must sort the instant's jobs together, as summarize
// does, not a batch at a time: the Summary bit for bit.
func TestSummaryOnlyLargeInstant(t *testing.T) {
	const P, n, T = 64, 60, 10_000_000
	var jobs []swf.Job
	blocker := swf.NewJob()
	blocker.ID, blocker.Submit, blocker.RunTime, blocker.AllocProcs, blocker.ReqTime = 1, 0, T, P, T
	jobs = append(jobs, blocker)
	for i := range n {
		j := swf.NewJob()
		// Submits from 1 s to near T, ever closer: waits from about T down
		// to a few seconds, slowdowns of every size.
		x := float64(i+1) / n
		j.ID, j.Submit, j.AllocProcs = int64(i+2), 1+int64(T*(1-(1-x)*(1-x)*(1-x)))-int64(n-i), 1
		j.RunTime = 50              // all start at T: all end at T+50
		j.ReqTime = 5000 - int64(i) // SJF: the last recorded first
		jobs = append(jobs, j)
	}
	// A last job after them, so that their ends lie in the summary's
	// window (up to the last submit).
	last := swf.NewJob()
	last.ID, last.Submit, last.RunTime, last.AllocProcs, last.ReqTime = n+2, T+1000, 10, 1, 10
	jobs = append(jobs, last)
	var preset sched.Preset
	for _, p := range sched.Presets() {
		if p.Name == "SJF" {
			preset = p
		}
	}
	if preset.Name == "" {
		t.Fatal("no SJF preset")
	}
	run := func(summaryOnly bool) *sched.Result {
		cfg := preset.New(P)
		cfg.SummaryOnly = summaryOnly
		s, err := sched.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Load(jobs); err != nil {
			t.Fatal(err)
		}
		res, err := s.Finish()
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	full := run(false)
	ends := map[int64]int{}
	for _, r := range full.Records {
		ends[r.End]++
	}
	if ends[T+50] != n {
		t.Fatalf("%d jobs end at T+50, want %d (ends %v)", ends[T+50], n, ends)
	}
	sameFolded(t, "one large instant", full, run(true))
}
