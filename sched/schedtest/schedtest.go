// Package schedtest checks a user's sched.Scheduler against the contract
// the simulator relies on, as pgregory.net/rapid properties over random
// workloads, the way qbetstest checks the qbets plug points. Call it from
// a test:
//
//	func TestMyPolicy(t *testing.T) {
//		schedtest.Scheduler(t, func() sched.Scheduler { return &MyPolicy{} })
//	}
//
// It checks the contract only, never one paper's choices: a policy may
// start jobs in any order, backfill or not, reserve or not. The package's
// own tests run it on every built-in and on policies that break each rule.
package schedtest

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// Scheduler checks the Schedulers newScheduler makes on random workloads
// (machines of 1–64 processors, or of nodes with cores, memory and GPUs
// where jobs ask for nodes, memory, GPUs or a share of one; bursts of
// arrivals, jobs that end before, at or after their estimates,
// cancellations of waiting and running jobs, a pass per timestamp or per
// event):
//
//   - no stall: the run ends with no job waiting (sched.ErrStall: waiting
//     jobs on an idle machine that the policy never starts);
//   - no refused action: the policy never starts a job that is not
//     waiting (twice, or after it ended), never reserves before now or
//     beyond the clock's range, never acts on a Pass after its Schedule
//     call returned (sched.Result.Refused is 0);
//   - never beyond the free resources: at every start the running jobs
//     fit in the machine (on nodes, sched.Result.Check: no node
//     overdrawn, every demand met), and no job starts before its arrival;
//   - deterministic: a second Scheduler from newScheduler, on the same
//     workload, gives the same schedule and reservations.
//
// newScheduler must return a fresh Scheduler each call (a stateless one
// may be returned again).
func Scheduler(t *testing.T, newScheduler func() sched.Scheduler) {
	t.Helper()
	check(t, newScheduler, false)
}

// NodeScheduler checks a Scheduler meant for machines of nodes
// (sched.Config.Nodes) as Scheduler does, on machines of 1–3 kinds of
// nodes with cores, memory and GPUs, where jobs ask for cores alone or
// for nodes, memory, whole GPUs, a share of one GPU, whole nodes. On
// nodes, free cores do not mean that a job fits (its cores may be spread
// over nodes that lack its memory, or the nodes its shares need be
// busy): a policy must stop probing on sched.ErrNoFit, not loop while
// Pass.Free() > 0. A Schedule call that does not return within a
// minute fails the check.
func NodeScheduler(t *testing.T, newScheduler func() sched.Scheduler) {
	t.Helper()
	check(t, newScheduler, true)
}

func check(t rapid.TB, newScheduler func() sched.Scheduler, nodes bool) {
	t.Helper()
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorkload(t, nodes)
		a := w.runGuarded(t, newScheduler())
		b := w.runGuarded(t, newScheduler())
		for i := range a.res.Records {
			x, y := &a.res.Records[i], &b.res.Records[i]
			if x.Start != y.Start || x.FirstReservation != y.FirstReservation || x.Backfilled != y.Backfilled {
				t.Fatalf("not deterministic: job %d starts at %d (reserved %d) in one run, at %d (reserved %d) in another",
					x.Job.ID, x.Start, x.FirstReservation, y.Start, y.FirstReservation)
			}
		}
	})
}

// workload is one drawn test case.
type workload struct {
	P        int64
	nodes    []swf.Node // a machine of nodes, or nil for P processors
	perEvent bool
	jobs     []swf.Job
	cancels  [][2]int64 // (time, job ID)
}

func drawWorkload(t *rapid.T, nodes bool) workload {
	w := workload{P: rapid.Int64Range(1, 64).Draw(t, "P"), perEvent: rapid.Bool().Draw(t, "perEvent")}
	if nodes {
		w.nodes = drawNodes(t)
		w.P = 0
		for _, k := range w.nodes {
			w.P += k.Count * k.Cores
		}
	}
	n := rapid.IntRange(1, 40).Draw(t, "jobs")
	var at int64
	for i := range n {
		at += rapid.SampledFrom([]int64{0, 0, 1, 5, 60, 600}).Draw(t, "gap")
		est := rapid.Int64Range(1, 3600).Draw(t, "estimate")
		run := rapid.SampledFrom([]int64{est / 3, est, est + 100, 0}).Draw(t, "run") // ends before, at or after its estimate
		size := rapid.Int64Range(1, w.P).Draw(t, "size")
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.AllocProcs, j.ReqProcs, j.ReqTime = int64(i+1), at, run, size, size, est
		j.User, j.Queue = rapid.Int64Range(1, 4).Draw(t, "user"), rapid.Int64Range(-1, 2).Draw(t, "queue")
		if w.nodes != nil && rapid.Bool().Draw(t, "demand") {
			j.Demand = drawDemand(t)
		}
		w.jobs = append(w.jobs, j)
	}
	for range rapid.IntRange(0, 3).Draw(t, "cancels") {
		w.cancels = append(w.cancels, [2]int64{rapid.Int64Range(0, at+3600).Draw(t, "cancel at"),
			rapid.Int64Range(1, int64(n)).Draw(t, "cancel job")})
	}
	return w
}

// drawNodes draws a machine of 1–3 kinds of 1–4 nodes, some with GPUs.
func drawNodes(t *rapid.T) []swf.Node {
	kinds := make([]swf.Node, rapid.IntRange(1, 3).Draw(t, "kinds"))
	for i := range kinds {
		kinds[i] = swf.Node{Name: fmt.Sprint("kind", i), Count: rapid.Int64Range(1, 4).Draw(t, "nodes"),
			Cores: rapid.Int64Range(1, 16).Draw(t, "cores"), Memory: rapid.Int64Range(0, 64).Draw(t, "memory")}
		if rapid.Bool().Draw(t, "has GPUs") {
			kinds[i].GPUs, kinds[i].GPUModel = rapid.Int64Range(1, 4).Draw(t, "GPUs"), "A"
		}
	}
	return kinds
}

// drawDemand draws a job's demand: 1–2 nodes, memory, whole GPUs or a
// share of one, sometimes whole nodes. Some fit no node (counted by the
// simulator, not the policy's concern).
func drawDemand(t *rapid.T) *swf.Demand {
	d := &swf.Demand{Nodes: rapid.Int64Range(1, 2).Draw(t, "demand nodes"), Cores: rapid.Int64Range(1, 8).Draw(t, "demand cores"),
		Memory: rapid.Int64Range(0, 32).Draw(t, "demand memory"), Exclusive: rapid.IntRange(0, 4).Draw(t, "exclusive") == 0}
	switch rapid.IntRange(0, 2).Draw(t, "demand GPUs") {
	case 1:
		d.GPUs = 1000
	case 2:
		d.GPUs = rapid.Int64Range(1, 999).Draw(t, "GPU share")
	}
	return d
}

// outcome is one run's result.
type outcome struct{ res *sched.Result }

// runTimeout bounds one run (tests shorten it).
var runTimeout = time.Minute

// runGuarded runs the workload under s, failing t if the run breaks the
// contract or a Schedule call does not return within a minute (the run
// goes on in the background then; the test has failed).
func (w workload) runGuarded(t *rapid.T, s sched.Scheduler) outcome {
	type result struct {
		o   outcome
		err error
	}
	done := make(chan result, 1)
	go func() {
		o, err := w.run(s)
		done <- result{o, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatalf("%v", r.err)
		}
		return r.o
	case <-time.After(runTimeout):
		t.Fatalf("the run did not end within a minute: does a Schedule call loop (e.g. while Pass.Free() > 0, on sched.ErrNoFit)?")
		return outcome{}
	}
}

// run simulates the workload under s and checks the run's own properties.
func (w workload) run(s sched.Scheduler) (outcome, error) {
	sim, err := sched.New(sched.Config{MachineSize: w.P, Nodes: w.nodes, KeepShares: true, Scheduler: s, PerEventPass: w.perEvent})
	if err != nil {
		return outcome{}, fmt.Errorf("sched.New: %v", err)
	}
	var busy int64
	started := map[int64]bool{}
	var bad error
	sim.Observe(sched.Hooks{
		Start: func(now int64, j *swf.Job, _ bool) {
			switch {
			case started[j.ID]:
				bad = cmpErr(bad, fmt.Errorf("job %d started twice (again at %d)", j.ID, now))
			case now < j.Submit:
				bad = cmpErr(bad, fmt.Errorf("job %d started at %d, before its arrival at %d", j.ID, now, j.Submit))
			case w.nodes == nil && busy+j.Size() > w.P: // on nodes, Result.Check
				bad = cmpErr(bad, fmt.Errorf("job %d of %d processors started at %d with %d of %d busy", j.ID, j.Size(), now, busy, w.P))
			}
			started[j.ID] = true
			busy += j.Size()
		},
		End: func(_ int64, j *swf.Job, _ bool) {
			if started[j.ID] {
				busy -= j.Size()
			}
		},
	})
	if err := sim.Load(slices.Clone(w.jobs)); err != nil {
		return outcome{}, fmt.Errorf("sim.Load: %v", err)
	}
	for _, c := range w.cancels {
		sim.At(c[0], func(int64) { sim.Cancel(c[1]) })
	}
	res, err := sim.Finish()
	switch {
	case errors.Is(err, sched.ErrStall):
		return outcome{}, fmt.Errorf("stall: %v", err)
	case err != nil:
		return outcome{}, fmt.Errorf("sim.Finish: %v", err)
	case bad != nil:
		return outcome{}, bad
	case w.nodes != nil && res.Check() != nil:
		return outcome{}, fmt.Errorf("on a machine of nodes %v: %v", w.nodes, res.Check())
	case res.Refused > 0:
		return outcome{}, fmt.Errorf("the simulator refused %d of the policy's actions (a job started twice or not waiting, a reservation before now or out of range, or an action on a kept Pass)", res.Refused)
	}
	return outcome{res}, nil
}

// cmpErr keeps the first error.
func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}
