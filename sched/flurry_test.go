package sched

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/batchq/batchq/swf"
)

// flurryJobs is a log with a flurry on 128 processors: 5,000 random jobs
// (1–16 processors, up to an hour) with gaps of 0–300 s, then one user's flurry one-processor jobs
// submitted at 200 a second, then 5,000 jobs 60 s apart. The flurry keeps
// 20 k jobs waiting, and conservative visits every one at each pass.
func flurryJobs(flurry int64) []swf.Job {
	r := rand.New(rand.NewPCG(1, 2))
	var jobs []swf.Job
	add := func(submit, run, procs, est int64, user int64) {
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.AllocProcs, j.ReqProcs, j.ReqTime, j.User = int64(len(jobs)+1), submit, run, procs, procs, est, user
		jobs = append(jobs, j)
	}
	t := int64(0)
	for range 5000 {
		t += r.Int64N(301)
		run := 1 + r.Int64N(3600)
		add(t, run, 1+r.Int64N(16), run+r.Int64N(3600), 1+r.Int64N(50))
	}
	for k := range flurry {
		run := 1 + r.Int64N(600)
		add(t+k/200, run, 1, run+r.Int64N(600), 99)
	}
	t += flurry / 200
	for range 5000 {
		t += 60
		run := 1 + r.Int64N(3600)
		add(t, run, 1+r.Int64N(128), run+r.Int64N(3600), 1+r.Int64N(50))
	}
	return jobs
}

// A cancelled Run returns the context's error soon, even in the midst of
// conservative's passes over a flurry's 20 k waiting jobs, each of which
// takes long: it looked at the context every 4,096 instants, between
// passes only, and a SIGTERM went unheard for minutes (a run of the
// whole log did not end in 300 s).
func TestFlurryCancelStopsConservative(t *testing.T) {
	jobs := flurryJobs(20000)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// cancelled at the flurry's last submission, 20 k waiting (a
	// cancellation after a fixed wall time could come before the flurry
	// on a fast machine)
	var at time.Time
	n := 0
	cut := Hooks{Submit: func(_ int64, j *swf.Job) {
		if j.User == 99 {
			if n++; n == 20000 {
				at = time.Now()
				cancel()
			}
		}
	}}
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, conservative(128), jobs, cut)
		done <- err
	}()
	// generous for -race on a loaded machine: the run itself goes on for
	// minutes
	const limit = 3 * time.Second
	select {
	case err := <-done:
		if at.IsZero() {
			t.Fatalf("the run ended, with %v, before the flurry's last submission", err)
		}
		if !errors.Is(err, context.Canceled) {
			t.Errorf("a cancelled run returned %v; want context.Canceled", err)
		}
		if d := time.Since(at); d > limit {
			t.Errorf("a cancelled run returned %v after the cancellation; want within %v", d, limit)
		} else {
			t.Logf("returned %v after the cancellation", d)
		}
	case <-time.After(limit + time.Minute):
		t.Fatalf("a cancelled run did not return within a minute and %v of its start", limit)
	}
}

// A cancellation heard in the midst of a long pass stops the pass there
// (a hook cancels in the pass, and the pass reads the context itself, so
// no goroutine's timing decides where), and the Sim, its pass state half written, returns the error from
// then on: it cannot go on to a schedule that is the policy's. On
// processors and on nodes (conservativeNodesPass).
func TestFlurryCancelStopsInPass(t *testing.T) {
	for _, c := range []struct {
		cfg    Config
		flurry int64
	}{
		{conservative(128), 20000},
		// a smaller flurry: on nodes, the whole one takes a minute to
		// arrive
		{Config{MachineSize: 128, Nodes: []swf.Node{{Count: 16, Cores: 8}}, Scheduler: conservativeScheduler{}}, 4000},
	} {
		cfg, jobs := c.cfg, flurryJobs(c.flurry)
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		// cancelled at the first reservation of a pass after the
		// flurry's last arrival (at an end: a pass of arrivals alone
		// takes a short route), in that pass's midst
		n, after, last := 0, 0, int64(-1)
		var in *Sim
		s.Observe(Hooks{Submit: func(now int64, j *swf.Job) {
			if j.User == 99 {
				if n++; n == int(c.flurry) {
					last = now
				}
			}
		}, Reservation: func(now int64, _ *swf.Job, _ int64) {
			switch {
			case in != nil:
				after++ // reservations made after the cancellation
			case last >= 0 && now > last:
				cancel()
				in = s
			}
		}})
		if err := s.Load(jobs); err != nil {
			t.Fatal(err)
		}
		res, err := s.FinishContext(ctx)
		if !errors.Is(err, context.Canceled) || res != nil {
			t.Fatalf("nodes=%v: FinishContext cancelled at the flurry: %v, result %v; want context.Canceled and none", cfg.Nodes != nil, err, res != nil)
		}
		if after > haltEvery {
			t.Errorf("nodes=%v: %d reservations after the cancellation; want at most %d", cfg.Nodes != nil, after, haltEvery)
		}
		if in == nil {
			t.Fatalf("nodes=%v: no reservation after the flurry: the log does not test the pass", cfg.Nodes != nil)
		}
		if !s.cut { // (and Finish would run the whole log)
			t.Fatalf("nodes=%v: the flurry's pass ran to its end after the cancellation", cfg.Nodes != nil)
		}
		if _, err := s.Finish(); !errors.Is(err, context.Canceled) {
			t.Errorf("nodes=%v: Finish after a pass stopped short: %v; want the cancellation's error", cfg.Nodes != nil, err)
		}
		cancel()
	}
}
