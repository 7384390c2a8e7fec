package sched_test

import (
	"context"
	"testing"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// A line whose submit time, run time or estimate is beyond
// sanitize.MaxTime (2^40 s) is rejected in a peer mode too, counted as
// "time out of range", with and without -kill: the peers (Python
// integers) would simulate it, as a job arriving or ending tens of
// thousands of years on, which no int64 sum of two such times may hold.
// The other jobs are simulated as the peer builds them. Peer's doc says
// so; this pins it on generated jobs.
func TestPeerTimeOutOfRangeRejected(t *testing.T) {
	late := job(2, sanitize.MaxTime+1, 60, 2, 120)
	long := job(3, 20, sanitize.MaxTime+1, 2, 120)
	guess := job(4, 30, 60, 2, 1<<50)
	jobs := []swf.Job{job(1, 0, 60, 2, 120), late, long, guess, job(5, 40, 200, 4, 100)}
	for _, peer := range []sched.Peer{sched.PeerPyss, sched.PeerPredictsim} {
		for _, kill := range []bool{false, true} {
			cfg := sched.EASY(8).WithPeer(peer)
			cfg.KillAtEstimate = kill
			res, err := sched.Run(context.Background(), cfg, jobs)
			if err != nil {
				t.Fatalf("%s, kill %v: %v", peer, kill, err)
			}
			if err := res.Check(); err != nil {
				t.Fatalf("%s, kill %v: %v", peer, kill, err)
			}
			if n := res.Rejected.Count(sanitize.TimeOutOfRange); n != 3 || len(res.Rejected.Excluded) != 3 {
				t.Errorf("%s, kill %v: rejected %v, want jobs 2, 3 and 4 as %q", peer, kill, res.Rejected.Excluded, sanitize.TimeOutOfRange)
			}
			if len(res.Records) != 2 || res.Records[0].Job.ID != 1 || res.Records[1].Job.ID != 5 {
				t.Fatalf("%s, kill %v: %d records, want jobs 1 and 5", peer, kill, len(res.Records))
			}
			// job 5 overran its estimate: the peer cuts it (run_cut_to_estimate)
			if r := res.Records[1]; r.RunTime != 100 || res.Changed()["run_cut_to_estimate"] != 1 {
				t.Errorf("%s, kill %v: job 5 ran %d s, changed %v; want 100 s, run_cut_to_estimate 1", peer, kill, r.RunTime, res.Changed())
			}
		}
	}
}
