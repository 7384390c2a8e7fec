package sched_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

func job(id, submit, run, procs, est int64) swf.Job {
	j := swf.NewJob()
	j.ID, j.Submit, j.RunTime, j.AllocProcs, j.ReqProcs, j.ReqTime, j.User = id, submit, run, procs, procs, est, 1
	return j
}

func ExampleRun() {
	jobs := []swf.Job{
		job(1, 0, 100, 8, 100), // fills the machine
		job(2, 10, 50, 4, 50),  // waits for job 1: reservation at 100
		job(3, 20, 30, 4, 80),  // would end at 100 by its estimate: backfilling needs a free processor
	}
	res, err := sched.Run(context.Background(), sched.EASY(8), jobs)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res.Records {
		fmt.Println(r.Job.ID, r.Start, r.End, r.Backfilled)
	}
	// Output:
	// 1 0 100 false
	// 2 100 150 false
	// 3 100 130 false
}

// sjbf is pyss's EASY with shortest-job-backfilled-first written as a user
// policy: the first waiting job starts while it fits; the first one that
// does not fit holds a reservation at the shadow time, and the others, by
// ascending prediction, start if they end by the shadow or fit in the
// processors the holder leaves over.
type sjbf struct{}

// Name names the policy in Result.Policy and in reports.
func (sjbf) Name() string { return "my-SJBF" }

func (sjbf) Schedule(p *sched.Pass) {
	var holder *sched.Job
	for j := range p.Waiting() {
		// The first job that does not fit holds the reservation. (Waiting
		// yields waiting jobs only, so ErrNotWaiting cannot happen here.)
		if err := p.Start(j); errors.Is(err, sched.ErrNoFit) {
			holder = j
			break
		}
	}
	if holder == nil {
		return
	}
	shadow, extra := p.Shadow(holder.Size())
	// A shadow in the past means a running job outlived its prediction;
	// Reserve refuses times before Now (ErrOutOfRange).
	p.Reserve(holder, max(shadow, p.Now()))
	for j := range p.ByPrediction() {
		if j == holder || j.Size() > p.Free() {
			continue
		}
		switch {
		case p.Now()+j.Prediction() <= shadow: // ends before the holder starts
		case j.Size() <= extra: // uses processors the holder does not need
			extra -= j.Size()
		default:
			continue
		}
		p.Backfill(j) // it fits: checked above
	}
}

func ExampleScheduler() {
	jobs := []swf.Job{
		job(1, 0, 100, 6, 100), // 6 of 8 processors until 100
		job(2, 10, 50, 8, 50),  // the whole machine: reservation at 100, no extra
		job(3, 20, 90, 2, 90),  // would end at 110: too late for 2's reservation
		job(4, 30, 60, 2, 60),  // ends by 100: backfilled
	}
	cfg := sched.EASY(8)
	cfg.Scheduler = sjbf{}
	res, err := sched.Run(context.Background(), cfg, jobs)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res.Records {
		fmt.Printf("job %d: wait %d, backfilled %v\n", r.Job.ID, r.Wait, r.Backfilled)
	}
	// Output:
	// job 1: wait 0, backfilled false
	// job 2: wait 90, backfilled false
	// job 3: wait 130, backfilled false
	// job 4: wait 0, backfilled true
}

// Hooks observes a simulation through the funcs it sets; here, the
// backfilled starts.
func ExampleHooks() {
	s, err := sched.New(sched.EASY(8))
	if err != nil {
		fmt.Println(err)
		return
	}
	s.Observe(sched.Hooks{Start: func(now int64, j *swf.Job, backfilled bool) {
		if backfilled {
			fmt.Printf("t=%d: job %d backfilled\n", now, j.ID)
		}
	}})
	if err := s.Load([]swf.Job{job(1, 0, 100, 6, 100), job(2, 10, 50, 8, 50), job(3, 30, 60, 2, 60)}); err != nil {
		fmt.Println(err)
		return
	}
	if _, err := s.Finish(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// t=30: job 3 backfilled
}
