package sched_test

import (
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// An observer that cancels the running job when EASY reserves the
// holder behind it: the holder fits now, and the pass that the
// cancellation asks for must start it (the memo of the pass that made
// the reservation counted the cancelled job's processors as held, and
// kept the holder waiting on an idle machine: a stall). On a pool and on
// nodes, and for every preset that runs EASY's or conservative
// backfilling.
func TestObserverCancelsAtReservation(t *testing.T) {
	for _, name := range []string{"EASY", "EASY++", "conservative"} {
		p, ok := sched.LookupPreset(name)
		if !ok {
			t.Fatalf("no preset %q", name)
		}
		for _, nodes := range []bool{false, true} {
			cfg := p.New(4)
			if nodes {
				cfg = p.New(0)
				cfg.Nodes = []swf.Node{{Name: "n", Count: 4, Cores: 1}}
			}
			s, err := sched.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Load([]swf.Job{job(1, 0, 100, 4, 100), job(2, 10, 50, 4, 50)}); err != nil {
				t.Fatal(err)
			}
			s.Observe(sched.Hooks{Reservation: func(_ int64, j *swf.Job, _ int64) {
				if j.ID == 2 {
					s.Cancel(1)
				}
			}})
			res, err := s.Finish()
			if err != nil {
				t.Fatalf("%s, nodes %v: %v", name, nodes, err)
			}
			for _, r := range res.Records {
				if r.Job.ID == 2 && r.Start != 10 {
					t.Errorf("%s, nodes %v: job 2 starts at %d, want 10 (job 1 cancelled then)", name, nodes, r.Start)
				}
			}
		}
	}
}
