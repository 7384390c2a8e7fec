package sched_test

import (
	"context"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

func userJob(id, user, submit, run, procs, est int64) swf.Job {
	j := job(id, submit, run, procs, est)
	j.User = user
	return j
}

// pyss handles the events of one instant as prediction over, submission,
// termination (its JobEvent.EVENTS_ORDER), with a pass after each
// submission and termination. P = 4, one user per job, so EASY++ predicts
// the estimates:
//
//	t=0   1 (2 procs, ends early at 100) and 2 (1 proc) start.
//	t=10  3 (3 procs) waits: 1 free; shadow 1000.
//	t=100 4 (1 proc, e=100) arrives before 1's termination is handled: it
//	      backfills into the 1 free processor (200 ≤ 1000); then 1 ends
//	      and 3 still lacks a processor until 4 ends at 150.
//
// Without pyss's order, 1's termination comes first, 3 starts at 100 and 4
// waits until 150.
func TestPeerPyssInstantOrder(t *testing.T) {
	jobs := []swf.Job{
		userJob(1, 1, 0, 100, 2, 1000), userJob(2, 2, 0, 1000, 1, 1000),
		userJob(3, 3, 10, 50, 3, 100), userJob(4, 4, 100, 50, 1, 100),
	}
	check(t, "pyss", preset("EASY++")(4).WithPeer(sched.PeerPyss), jobs, want{1: 0, 2: 0, 3: 150, 4: 100})
	check(t, "default", preset("EASY++")(4), jobs, want{1: 0, 2: 0, 3: 100, 4: 150})
}

// A job that ends as predicted leaves pyss's processor snapshot at the
// instant's first event, but its user's history learns its run time only
// at its own termination event, whose pass re-predicts the waiting jobs.
// P = 4:
//
//	t=0    1, 2 (user 1, 1000 s each) and 3 (2 procs until 5000) start;
//	       at 1000 user 1's history is {1000, 1000}.
//	t=1500 6 (4 procs) waits: shadow 5000.
//	t=2000 4 and 5 (user 1, e = r = 1, predicted 1) backfill; 7 (user 1,
//	       2 procs, e=1000, predicted 1000) and 8 (user 8, 2 procs, e=300)
//	       wait.
//	t=2001 4 and 5 end as predicted: 2 processors free at once. 4's
//	       termination: history {1000, 1}, 7 predicted 500; SJBF starts 8
//	       (predicted 300). 5's termination: 7 predicted 1, nothing free.
//	t=2301 8 ends, 7 backfills (2302 ≤ 5000). t=5000 3 ends, 6 starts.
//
// Learning both run times before the first pass would predict 1 for 7 and
// start it at 2001 instead of 8.
func TestPeerPyssLearnsAtTermination(t *testing.T) {
	jobs := []swf.Job{
		userJob(1, 1, 0, 1000, 1, 1000), userJob(2, 1, 0, 1000, 1, 1000),
		userJob(3, 3, 0, 5000, 2, 5000), userJob(6, 6, 1500, 100, 4, 100),
		userJob(4, 1, 2000, 1, 1, 1), userJob(5, 1, 2000, 1, 1, 1),
		userJob(7, 1, 2000, 1000, 2, 1000), userJob(8, 8, 2000, 300, 2, 300),
	}
	check(t, "pyss", preset("EASY++")(4).WithPeer(sched.PeerPyss), jobs,
		want{4: 2000, 5: 2000, 8: 2001, 7: 2301, 6: 5000})
}

// Both peers run a line with run time 0 for 1 second with estimate 1, on
// the processors it gives (KTH job 6608).
func TestPeerZeroRunTime(t *testing.T) {
	for _, peer := range []sched.Peer{sched.PeerPyss, sched.PeerPredictsim} {
		res, err := sched.Run(context.Background(), sched.EASY(8).WithPeer(peer), []swf.Job{job(1, 0, 0, 4, 17340)})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Records) != 1 {
			t.Fatalf("%v: %d records", peer, len(res.Records))
		}
		if r := res.Records[0]; r.RunTime != 1 || r.Estimate != 1 || r.Size != 4 {
			t.Errorf("%v: run %d, estimate %d, %d procs; want 1, 1, 4", peer, r.RunTime, r.Estimate, r.Size)
		}
	}
}
