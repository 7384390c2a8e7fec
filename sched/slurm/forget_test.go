package slurm

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// TestReuseSameClock: one Policy plugged into a simulation that starts
// at the clock where the last one stopped (sched/forecast's simulations
// from one snapshot: the clock does not go back, so no new simulation
// begins) meets jobs of the IDs the last one left waiting: forget drops
// those records, and the new simulation is scheduled as a fresh Policy
// schedules it. (The last one's running jobs are not in the new
// simulation's running ones: its first pass ends them. It stops before
// the first PriorityCalcPeriod calculation, so that no usage was added;
// fair share is not weighted, as the associations the last one made stay
// in the tree, and order users of no usage by their creation.)
// Without forget a job of the new simulation is mistaken for the old
// record of its ID, which the pass then ends as cancelled: it never
// starts, or starts elsewhen.
func TestReuseSameClock(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		site := Config{WeightAge: 100, WeightJobSize: 10, CalcPeriod: 60, BackfillInterval: 10}
		mk := func() *Policy {
			p, err := New(site, sched.Config{MachineSize: 8})
			if err != nil {
				rt.Fatal(err)
			}
			return p
		}
		a, b := drawReuse(rt, "a"), drawReuse(rt, "b")
		at := rapid.Int64Range(0, 500).Draw(rt, "at")
		for _, jobs := range [][]swf.Job{a, b} {
			for i := range jobs {
				jobs[i].Submit += at
			}
		}
		p := mk()
		s, err := sched.New(sched.Config{MachineSize: 8, Scheduler: p})
		if err != nil {
			rt.Fatal(err)
		}
		if err := s.Load(a); err != nil {
			rt.Fatal(err)
		}
		if err := s.RunUntil(at); err != nil { // a's first pass only
			rt.Fatal(err)
		}
		if p.lastNow != at || p.jobs.len() == 0 {
			rt.Fatalf("the first simulation's pass at %d left %d jobs", p.lastNow, p.jobs.len())
		}
		got, err := sched.Run(context.Background(), sched.Config{MachineSize: 8, Scheduler: p}, b)
		if err != nil {
			rt.Fatalf("reused: %v", err)
		}
		// The policy holds a record for each job it takes to be running
		// or waiting, and counts those that left its queue.
		left, waiting := 0, 0
		for _, r := range p.queue {
			if r.running || r.gone {
				left++
			} else {
				waiting++
			}
		}
		if p.jobs.len() != len(p.running)+waiting || left != p.left {
			rt.Fatalf("after the reused simulation: %d records held, %d running and %d waiting; %d left the queue, %d counted",
				p.jobs.len(), len(p.running), waiting, left, p.left)
		}
		want, err := sched.Run(context.Background(), sched.Config{MachineSize: 8, Scheduler: mk()}, b)
		if err != nil {
			rt.Fatal(err)
		}
		for i := range want.Records {
			if g, w := got.Records[i], want.Records[i]; g.Start != w.Start || g.End != w.End {
				rt.Fatalf("job %d runs [%d, %d) in the reused Policy, [%d, %d) in a fresh one", w.Job.ID, g.Start, g.End, w.Start, w.End)
			}
		}
	})
}

// drawReuse draws jobs with IDs from 1, the first submitted at 0 (the
// clock where both simulations start).
func drawReuse(rt *rapid.T, label string) []swf.Job {
	n := rapid.IntRange(1, 12).Draw(rt, label+" jobs")
	jobs := make([]swf.Job, n)
	var sub int64
	for i := range jobs {
		if i > 0 {
			sub += rapid.SampledFrom([]int64{0, 0, 7, 61, 400}).Draw(rt, label+" gap")
		}
		est := rapid.Int64Range(1, 2000).Draw(rt, label+" estimate")
		procs := rapid.Int64Range(1, 8).Draw(rt, label+" size")
		j := swf.NewJob()
		j.ID, j.Submit, j.User, j.AllocProcs, j.ReqProcs, j.RunTime, j.ReqTime = int64(i+1), sub, rapid.Int64Range(1, 3).Draw(rt, label+" user"), procs, procs, est, est
		jobs[i] = j
	}
	return jobs
}

// stalePass is a sched.Scheduler that keeps the last pass it was handed,
// so that a test can act on it after it ended.
type stalePass struct {
	p    *Policy
	last *sched.Pass
}

func (s *stalePass) Schedule(pass *sched.Pass) { s.last = pass; s.p.Schedule(pass) }

// TestStartError: a start the simulator refuses for another reason than
// a lack of room (here a pass that has ended: a bug of the policy, which
// start guards against) holds the job for good, with the error as the
// reason: neither the main scheduler nor backfill tries it again, and
// the simulation stalls on it. Job 1 holds all 8 CPUs until 1000; job 2
// waits behind it, and would start at 1000 if start had let it go.
func TestStartError(t *testing.T) {
	p, err := New(Config{BackfillInterval: 10}, sched.Config{MachineSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	sp := &stalePass{p: p}
	s, err := sched.New(sched.Config{MachineSize: 8, Scheduler: sp})
	if err != nil {
		t.Fatal(err)
	}
	mk := func(id, size, run int64) swf.Job {
		j := swf.NewJob()
		j.ID, j.Submit, j.User, j.AllocProcs, j.ReqProcs, j.RunTime, j.ReqTime = id, 0, 1, size, size, run, run
		return j
	}
	if err := s.Load([]swf.Job{mk(1, 8, 1000), mk(2, 4, 100)}); err != nil {
		t.Fatal(err)
	}
	if err := s.RunUntil(100); err != nil {
		t.Fatal(err)
	}
	r, ok := p.jobs.get(2)
	if !ok || r.running || r.out {
		t.Fatalf("job 2 is not waiting: %+v", r)
	}
	gen := p.queueGen
	if p.start(sp.last, r, false) {
		t.Fatal("a start through an ended pass succeeded")
	}
	if !strings.Contains(r.held, sched.ErrStalePass.Error()) || !r.out || r.running {
		t.Fatalf("job 2 after the refused start: held %q, out %v, running %v", r.held, r.out, r.running)
	}
	if p.queueGen == gen {
		t.Fatal("the queue's generation did not change: least (the fewest CPUs a waiting job asks) would still count job 2")
	}
	if _, err := s.Finish(); !errors.Is(err, sched.ErrStall) {
		t.Fatalf("Finish: %v, want the stall of held job 2", err)
	}
}
