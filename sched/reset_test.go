package sched

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/batchq/batchq/swf"
)

// resetJobs is n random jobs on up to 64 processors, some without an
// estimate, some running past it.
func resetJobs(seed uint64, n int) []swf.Job {
	r := rand.New(rand.NewPCG(seed, 9))
	var jobs []swf.Job
	t := int64(0)
	for i := range n {
		j := swf.NewJob()
		t += r.Int64N(120)
		j.ID, j.Submit, j.RunTime = int64(i+1), t, 1+r.Int64N(7200)
		j.AllocProcs = 1 + r.Int64N(64)
		j.ReqProcs, j.ReqTime, j.User = j.AllocProcs, j.RunTime+r.Int64N(7200)-600, 1+r.Int64N(20)
		if r.IntN(20) == 0 {
			j.ReqTime = -1
		}
		jobs = append(jobs, j)
	}
	return jobs
}

// TestResetEqualsNew checks that a Sim Reset in the middle of another
// simulation — jobs waiting and running, live states recycled, records
// filled — simulates a log as a new Sim does, result for result, under
// EASY, conservative and FCFS, on a pool and on nodes, and that it reused
// the old simulation's live states.
func TestResetEqualsNew(t *testing.T) {
	nodes := []swf.Node{{Name: "n", Count: 16, Cores: 4}}
	for _, name := range []string{"easy", "conservative", "fcfs"} {
		p, ok := LookupPreset(name)
		if !ok {
			t.Fatalf("no preset %q", name)
		}
		for _, onNodes := range []bool{false, true} {
			cfg := p.New(64)
			if onNodes {
				cfg.Nodes, cfg.MachineSize = nodes, 0
			}
			for seed := range uint64(2) {
				first, second := resetJobs(seed, 300), resetJobs(seed+100, 200)
				fresh, err := New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				if err := fresh.Load(second); err != nil {
					t.Fatal(err)
				}
				want, err := fresh.Finish()
				if err != nil {
					t.Fatal(err)
				}
				old, err := New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				if err := old.Load(first); err != nil {
					t.Fatal(err)
				}
				if err := old.RunUntil(first[len(first)/2].Submit); err != nil {
					t.Fatal(err)
				}
				spare := len(old.spare) + old.waitFCFS.Len() + old.run.Len()
				if err := old.Reset(cfg); err != nil {
					t.Fatal(err)
				}
				if len(old.spare) != spare || spare == 0 {
					t.Errorf("%s nodes %v seed %d: %d live states kept, want %d", name, onNodes, seed, len(old.spare), spare)
				}
				if err := old.Load(second); err != nil {
					t.Fatal(err)
				}
				got, err := old.Finish()
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s nodes %v seed %d: the Reset Sim's result differs from a new one's", name, onNodes, seed)
				}
			}
		}
	}
}

// TestResetInvalid checks that Reset with a configuration New refuses
// returns New's error and leaves the simulation as it was.
func TestResetInvalid(t *testing.T) {
	s, err := New(Config{MachineSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Load(resetJobs(1, 20)); err != nil {
		t.Fatal(err)
	}
	recs := len(s.recs)
	_, want := New(Config{MachineSize: -1})
	if err := s.Reset(Config{MachineSize: -1}); err == nil || err.Error() != want.Error() {
		t.Fatalf("Reset(-1 processors) = %v, want %v", err, want)
	}
	if s.cfg.MachineSize != 8 || len(s.recs) != recs || recs == 0 {
		t.Errorf("after a refused Reset: machine %d, %d records, %d before", s.cfg.MachineSize, len(s.recs), recs)
	}
}

// jobLog is a Scheduler that starts the waiting jobs in order while the
// head fits (on nodes: while Pass.Start accepts it) and logs what every
// waiting and running job shows a policy at each pass.
type jobLog struct{ log []string }

func (l *jobLog) Schedule(p *Pass) {
	for j := range p.Running() {
		l.log = append(l.log, fmt.Sprintf("r %d %d %+v %d %d", j.ID(), j.Size(), j.Demand(), j.Started(), j.PredictedEnd()))
	}
	var heads []*Job
	for j := range p.Waiting() {
		l.log = append(l.log, fmt.Sprintf("w %d %d %d %d %+v %d %d %+v", j.ID(), j.Size(), j.Estimate(), j.Prediction(), j.Demand(), j.Started(), j.Reservation(), j.SWF()))
		heads = append(heads, j)
	}
	for _, j := range heads {
		if p.Start(j) != nil {
			break
		}
	}
}

// TestResetAcrossMachines checks that a Sim Reset from a simulation on
// nodes to one on a pool, and back, shows its scheduler the jobs a new
// Sim shows: a live state kept from the machine of nodes had its
// demand (Job.Demand, which sched/slurm reads on a pool too) on the pool.
func TestResetAcrossMachines(t *testing.T) {
	nodes := []swf.Node{{Name: "n", Count: 16, Cores: 4}}
	onNodes := func(c Config) Config { c.Nodes, c.MachineSize = nodes, 0; return c }
	pool := func(c Config) Config { return c }
	for _, order := range [][2]func(Config) Config{{onNodes, pool}, {pool, onNodes}, {onNodes, onNodes}} {
		first, second := resetJobs(3, 300), resetJobs(4, 200)
		var want, got jobLog
		fresh, err := New(order[1](Config{MachineSize: 64, Scheduler: &want}))
		if err != nil {
			t.Fatal(err)
		}
		if err := fresh.Load(second); err != nil {
			t.Fatal(err)
		}
		if _, err := fresh.Finish(); err != nil {
			t.Fatal(err)
		}
		var before jobLog
		old, err := New(order[0](Config{MachineSize: 64, Scheduler: &before}))
		if err != nil {
			t.Fatal(err)
		}
		if err := old.Load(first); err != nil {
			t.Fatal(err)
		}
		if err := old.RunUntil(first[len(first)/2].Submit); err != nil {
			t.Fatal(err)
		}
		if err := old.Reset(order[1](Config{MachineSize: 64, Scheduler: &got})); err != nil {
			t.Fatal(err)
		}
		if err := old.Load(second); err != nil {
			t.Fatal(err)
		}
		if _, err := old.Finish(); err != nil {
			t.Fatal(err)
		}
		if len(got.log) != len(want.log) || len(want.log) == 0 {
			t.Fatalf("%d lines logged after Reset, %d by a new Sim", len(got.log), len(want.log))
		}
		for i := range got.log {
			if got.log[i] != want.log[i] {
				t.Fatalf("after Reset, line %d: %s\nnew Sim's:         %s", i, got.log[i], want.log[i])
			}
		}
	}
}
