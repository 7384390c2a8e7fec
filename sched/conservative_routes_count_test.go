package sched

import (
	"errors"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/batchq/batchq/swf"
)

// TestConservativeRoutesTaken: each of conservative backfilling's cuts
// (the routes that spare a pass, a visit or a scan; consRoutes) is taken
// on a fixed workload, and the records are still the plain pass's.
// Switched off, a cut changes no schedule, so without this no test would
// see it gone. The workload: 3,000 jobs on 128 processors at a load near
// 1, estimates up to 5 times the run time (so that jobs end early and
// the queue compresses), a fixed seed.
func TestConservativeRoutesTaken(t *testing.T) {
	jobs := routesWorkload(3000, 128)
	want, _, err := routesRun(jobs, plainConservative{})
	if err != nil {
		t.Fatal(err)
	}
	got, sim, err := routesRun(jobs, conservativeScheduler{})
	if err != nil {
		t.Fatal(err)
	}
	samePlainRecords(t, want, got)
	m := sim.prof.memo
	if m == nil {
		t.Fatal("no memo")
	}
	r := m.routes
	t.Logf("%+v", r)
	for _, c := range []struct {
		name string
		n    int64
	}{
		{"quiet passes (conservativeQuiet)", r.quiet},
		{"arrivals after a rebase without gain", r.rebasedArrivals},
		{"full passes with the list in place", r.arrivalsInPlace},
		{"of those, with reservations passed", r.duePasses},
		{"overdrawn passes (consOverdrawn)", r.overdrawn},
		{"moves", r.moves},
		{"scans (fitBefore)", r.scans},
		{"scans spared or shortened by noStart", r.noStart},
		{"jobs kept by the r-1 proof", r.rMinus1},
		{"jobs kept by the last blocking step (blocker)", r.stepBlocked},
	} {
		if c.n == 0 {
			t.Errorf("%s: never taken", c.name)
		}
	}
	// fewer than half the visits scan a settled job's starts (fitBefore):
	// the others keep the job without a scan or place a fresh one (an
	// arrival, a job whose slot changed; fitOwn or Fit), which is why
	// visits-scans is not the count of jobs kept without a scan
	if r.visits-r.scans <= r.scans {
		t.Errorf("%d visits, %d of them scans of a settled job (fitBefore): not fewer than half", r.visits, r.scans)
	}
}

// routesRun simulates jobs under sc on 128 processors (safe to call from
// several goroutines: it reports errors instead of failing a test).
func routesRun(jobs []swf.Job, sc Scheduler) (*Result, *Sim, error) {
	sim, err := New(Config{MachineSize: 128, Scheduler: sc})
	if err != nil {
		return nil, nil, err
	}
	if err := sim.Load(jobs); err != nil {
		return nil, nil, err
	}
	res, err := sim.Finish()
	return res, sim, err
}

// routesWorkload returns n jobs for a machine of P processors: Poisson
// arrivals at a load near 1, about log-uniform run times from 10 s to 6 h,
// power-of-two sizes up to P/2, estimates 1-5 times the run time, and one
// job in 20 that outlives its estimate (S3: the reservations held at now
// overdraw the profile), from a fixed seed.
func routesWorkload(n int, P int64) []swf.Job {
	rng := rand.New(rand.NewPCG(34, 5))
	jobs := make([]swf.Job, n)
	var sub float64
	for i := range jobs {
		size := int64(1) << rng.IntN(7) // 1-64
		k := rng.IntN(11)
		run := int64(10)<<k + rng.Int64N(int64(10)<<k) // 10 s to about 6 h
		est := run + rng.Int64N(4*run+1)
		if rng.IntN(20) == 0 {
			est = max(run/2, 1)
		}
		// mean work per job (about 50,000 processor-seconds) about P·gap: a load near 1
		sub += rng.ExpFloat64() * 420 // (integers: the draws are exact)
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.ReqTime = int64(i+1), int64(sub), run, est
		j.AllocProcs, j.ReqProcs, j.User = size, size, int64(1+rng.IntN(8))
		jobs[i] = j
	}
	return jobs
}

// TestConservativeRoutesPerSimulation: the route counters are each
// simulation's own (in its memo), not the package's: two simulations run
// at once count what one alone does, and under -race their counting is
// no data race (sweeps and forecasters run simulations side by side).
func TestConservativeRoutesPerSimulation(t *testing.T) {
	jobs := routesWorkload(1000, 128)
	run := func() (consRoutes, error) {
		_, sim, err := routesRun(jobs, conservativeScheduler{})
		if err != nil {
			return consRoutes{}, err
		}
		if sim.prof.memo == nil {
			return consRoutes{}, errors.New("no memo")
		}
		return sim.prof.memo.routes, nil
	}
	alone, err := run()
	if err != nil {
		t.Fatal(err)
	}
	if alone.full == 0 {
		t.Fatalf("%+v: no full pass", alone)
	}
	var got [2]consRoutes
	var errs [2]error
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i], errs[i] = run() })
	}
	wg.Wait()
	for i := range got {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if got[i] != alone {
			t.Errorf("simulation %d of two at once: %+v, alone %+v", i, got[i], alone)
		}
	}
}
