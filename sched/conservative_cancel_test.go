package sched_test

import (
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// An observer that cancels a job while conservative backfilling starts
// the jobs its pass chose: the cancelled job must not start (it was
// started anyway, and recorded as run), and the next pass must not trust
// a memo that counted it as started. Three one-processor jobs start at
// once on a pool and on nodes; the start of the first cancels the third.
func TestConservativeObserverCancelsDuringStarts(t *testing.T) {
	p, _ := sched.LookupPreset("conservative")
	for _, nodes := range []bool{false, true} {
		cfg := p.New(4)
		if nodes {
			cfg = p.New(0)
			cfg.Nodes = []swf.Node{{Name: "n", Count: 4, Cores: 1}}
			cfg.KeepShares = true // for Check
		}
		s, err := sched.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		jobs := []swf.Job{job(1, 0, 100, 1, 100), job(2, 0, 100, 1, 100), job(3, 0, 100, 1, 100), job(4, 10, 50, 4, 50)}
		if err := s.Load(jobs); err != nil {
			t.Fatal(err)
		}
		s.Observe(sched.Hooks{Start: func(_ int64, j *swf.Job, _ bool) {
			if j.ID == 1 {
				s.Cancel(3)
			}
		}})
		res, err := s.Finish()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Records {
			if r.Job.ID == 3 && !r.Cancelled {
				t.Errorf("nodes %v: job 3, cancelled while job 1 started, recorded %+v", nodes, r)
			}
			// Job 4 needs the whole machine: it starts when jobs 1
			// and 2 end, at 100, whatever job 3 did.
			if r.Job.ID == 4 && r.Start != 100 {
				t.Errorf("nodes %v: job 4 starts at %d, want 100", nodes, r.Start)
			}
		}
		if err := res.Check(); err != nil {
			t.Errorf("nodes %v: %v", nodes, err)
		}
	}
}
