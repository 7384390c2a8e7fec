package sched_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// wrapped is a built-in order seen as a user's: the simulator cannot
// recognise it, so it takes the generic path (a scan for the holder, a
// stable sort for backfilling).
type wrapped struct{ sched.Order }

// A user's Order equal to a built-in gives the built-in's schedule, job by
// job, in every mode: the generic path and the fast paths agree.
func TestUserOrderMatchesBuiltin(t *testing.T) {
	_, jobs, err := swf.ReadFile(tracetest.Path(t, tracetest.KTH))
	if err != nil {
		t.Fatal(err)
	}
	jobs = jobs[:6000]
	for _, e := range []sched.EASYScheduler{
		{}, {Backfill: sched.ByPrediction}, {Queue: sched.ByPrediction, Backfill: sched.ByPrediction},
		{Queue: sched.ByLXFW, Backfill: sched.ByLXFW}, {Backfill: sched.ByPrediction, EstimateSafe: true},
	} {
		user := sched.EASYScheduler{Queue: wrapped{e.Queue}, Backfill: wrapped{e.Backfill}, EstimateSafe: e.EstimateSafe}
		if e.Queue == nil {
			user.Queue = wrapped{sched.ByArrival}
		}
		if e.Backfill == nil {
			user.Backfill = wrapped{sched.ByArrival}
		}
		for mode := range 4 {
			cfg := func(s sched.Scheduler) sched.Config {
				c := sched.Config{MachineSize: 100, Scheduler: s, PerEventPass: mode%2 == 1, KillAtEstimate: mode == 2, ShadowTies: mode == 3}
				if mode == 3 {
					c = c.WithPeer(sched.PeerPyss)
				}
				return c
			}
			a, err := sched.Run(context.Background(), cfg(e), jobs)
			if err != nil {
				t.Fatal(err)
			}
			b, err := sched.Run(context.Background(), cfg(user), jobs)
			if err != nil {
				t.Fatal(err)
			}
			if runHash(a) != runHash(b) {
				for i := range a.Records {
					if a.Records[i].Start != b.Records[i].Start {
						t.Errorf("%s mode %d: job %d starts at %d, built-in at %d", e.Name(), mode, a.Records[i].Job.ID, b.Records[i].Start, a.Records[i].Start)
						break
					}
				}
				t.Errorf("%s mode %d: runs differ", e.Name(), mode)
			}
			if a.Policy != e.Name() || b.Policy != user.Name() {
				t.Errorf("policies %q and %q", a.Policy, b.Policy)
			}
		}
	}
}

// byQueue serves queue 1 (express) before the others, then arrival.
type byQueue struct{}

func (byQueue) Less(now int64, a, b *sched.Job) bool { return a.Queue() == 1 && b.Queue() != 1 }
func (byQueue) Name() string                         { return "express-first" }

// An Order plugs a user's queue order into EASY: here an express queue
// gets the reservation first.
func ExampleOrder() {
	jobs := []swf.Job{
		job(1, 0, 100, 8, 100), // the whole machine until 100
		job(2, 10, 50, 8, 50),  // queue 0
		job(3, 20, 50, 8, 50),  // queue 1: overtakes job 2
	}
	jobs[2].Queue = 1
	cfg := sched.EASY(8)
	cfg.Scheduler = sched.EASYScheduler{Queue: byQueue{}}
	res, err := sched.Run(context.Background(), cfg, jobs)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Policy)
	for _, r := range res.Records {
		fmt.Println(r.Job.ID, r.Start)
	}
	// Output:
	// EASY(queue=express-first,backfill=arrival)
	// 1 0
	// 2 150
	// 3 100
}

// A fair-share flavour without the step-wise API: an Observer given to Run
// sees every start and end, so a policy can charge its users.
func TestRunObserversAndJobFields(t *testing.T) {
	used := map[int64]int64{}
	obs := sched.Hooks{End: func(now int64, j *swf.Job, cancelled bool) { used[j.User] += j.Size() * j.RunTime }}
	jobs := []swf.Job{job(1, 0, 100, 4, 100), job(2, 0, 50, 4, 60)}
	jobs[1].User, jobs[1].Group, jobs[1].Queue, jobs[1].Partition = 7, 8, 9, 10
	var seen [4]int64
	var leak swf.Job
	pol := policyFunc(func(p *sched.Pass) {
		for j := range p.Waiting() {
			if j.ID() == 2 {
				seen = [4]int64{j.User(), j.Group(), j.Queue(), j.Partition()}
				leak = j.SWF()
			}
			p.Start(j)
		}
	})
	res, err := sched.Run(context.Background(), sched.Config{MachineSize: 8, Scheduler: pol}, jobs, obs)
	if err != nil {
		t.Fatal(err)
	}
	if used[1] != 400 || used[7] != 200 {
		t.Errorf("usage %v, want user 1: 400, user 7: 200", used)
	}
	if seen != [4]int64{7, 8, 9, 10} {
		t.Errorf("user, group, queue, partition %v", seen)
	}
	if leak.RunTime != swf.Unknown || leak.ReqTime != 60 {
		t.Errorf("Job.SWF gives run time %d (want hidden), estimate %d", leak.RunTime, leak.ReqTime)
	}
	if res.Policy != "sched_test.policyFunc" {
		t.Errorf("Policy %q, want the Go type", res.Policy)
	}
}

type policyFunc func(p *sched.Pass)

func (f policyFunc) Schedule(p *sched.Pass) { f(p) }
