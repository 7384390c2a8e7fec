package forecast

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// randomSnapshot is a machine of 32–160 processors with running jobs
// (some past their estimate, some without one) and waiting jobs (some
// larger than the machine, some without an estimate).
func randomSnapshot(rng *rand.Rand) *Snapshot {
	s := &Snapshot{Now: 100000, MachineSize: 32 + rng.Int64N(129)}
	used := int64(0)
	for i := 0; used < s.MachineSize*3/4 && i < 60; i++ {
		n := min(1+rng.Int64N(16), s.MachineSize-used)
		used += n
		start := s.Now - rng.Int64N(7200)
		est := 60 + rng.Int64N(7200)
		if rng.IntN(10) == 0 {
			est = -1
		}
		s.Running = append(s.Running, job(int64(i+1), start-60, 60, -1, n, est, rng.Int64N(8)))
	}
	for i := range 1 + rng.IntN(80) {
		n := int64(1) << rng.IntN(7)
		if rng.IntN(30) == 0 {
			n = s.MachineSize + 1
		}
		est := 60 + rng.Int64N(36000)
		if rng.IntN(10) == 0 {
			est = -1
		}
		s.Waiting = append(s.Waiting, job(int64(1000+i), s.Now-int64(80-i)*10, -1, -1, n, est, rng.Int64N(8)))
	}
	return s
}

// TestEarlyStop checks that the simulation stopped once the asked jobs
// have started gives the starts of the simulation run to its end
// (sched.Run over the same jobs), for every preset policy on one pool and
// on nodes, user-history
// and estimate run times, and the three ways a forecast asks: every
// waiting job (Forecast), one of them (Online) and a hypothetical job
// behind them (WhatIf).
func TestEarlyStop(t *testing.T) {
	rng := rand.New(rand.NewPCG(36, 1))
	ctx := context.Background()
	later := map[bool]int{} // asked jobs started after Now, on nodes or not
	for _, p := range sched.Presets() {
		for c := range 12 {
			s := randomSnapshot(rng)
			// Every fourth case on a machine of nodes of 16 cores (the
			// snapshot's running jobs are at most 16 wide, so they fit).
			nodes := c%4 == 1
			if nodes {
				s.MachineSize = (s.MachineSize + 15) / 16 * 16
			}
			policy := func() sched.Config {
				if !nodes {
					return p.New(1) // (the simulation's MachineSize is the snapshot's)
				}
				pc := p.New(s.MachineSize)
				pc.Nodes = []swf.Node{{Count: s.MachineSize / 16, Cores: 16}}
				return pc
			}
			cfg := Config{Policy: policy(), Estimates: c%3 == 0}
			f, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			// Feed the run-time predictor some history.
			for u := range int64(8) {
				for range 3 {
					j := job(1, 0, 0, 30+rng.Int64N(3600), 1, 7200, u)
					f.Terminated(&j, s.Now)
				}
			}
			r, w := len(s.Running), len(s.Waiting)
			pos := rng.IntN(w)
			extra := job(9999, s.Now, -1, -1, 1+rng.Int64N(32), 600+rng.Int64N(3600), rng.Int64N(8))
			asks := []struct {
				name        string
				snap        *Snapshot
				extra       *swf.Job
				from, count int
			}{
				{"every waiting job", s, nil, r, w},
				{"one waiting job", &Snapshot{Now: s.Now, MachineSize: s.MachineSize, Running: s.Running, Waiting: s.Waiting[:pos+1]}, nil, r + pos, 1},
				{"a hypothetical job", s, &extra, r + w, 1},
			}
			for _, a := range asks {
				// A fresh policy for each simulation: a preset's
				// predictor keeps per-simulation state.
				f.cfg.Policy = policy()
				if err := f.simulate(ctx, a.snap, a.extra, a.from, a.count); err != nil {
					t.Fatalf("%s, case %d, %s: %v", p.Name, c, a.name, err)
				}
				got := append([]int64(nil), f.starts[a.from:a.from+a.count]...)
				full := policy()
				full.MachineSize = f.lastMachine
				res, err := sched.Run(ctx, full, append([]swf.Job(nil), f.jobs...))
				if err != nil {
					t.Fatalf("%s, case %d, %s: full simulation: %v", p.Name, c, a.name, err)
				}
				want := make([]int64, a.count)
				for i := range want {
					want[i] = -1
				}
				for i := range res.Records {
					rec := &res.Records[i]
					if k := int(rec.Job.ID) - 1 - a.from; k >= 0 && k < a.count && rec.Start >= 0 {
						want[k] = rec.Start
					}
				}
				for _, st := range got {
					if st > s.Now {
						later[nodes]++
					}
				}
				if !equal(got, want) {
					t.Fatalf("%s, case %d, %s: early stop %v, full simulation %v", p.Name, c, a.name, got, want)
				}
			}
		}
	}
	if later[false] < 2000 || later[true] < 500 {
		t.Errorf("only %d asked jobs on one pool and %d on nodes start after now: the snapshots test little", later[false], later[true])
	}
}
