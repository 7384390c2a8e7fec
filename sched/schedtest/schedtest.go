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

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// Scheduler checks the Schedulers newScheduler makes on random workloads
// (machines of 1–64 processors, bursts of arrivals, jobs that end before,
// at or after their estimates, cancellations of waiting and running jobs,
// a pass per timestamp or per event):
//
//   - no stall: the run ends with no job waiting (sched.ErrStall: waiting
//     jobs on an idle machine that the policy never starts);
//   - no refused action: the policy never starts a job that is not
//     waiting (twice, or after it ended), never reserves before now or
//     beyond the clock's range, never acts on a Pass after its Schedule
//     call returned (sched.Result.Refused is 0);
//   - never beyond the free resources: at every start the running jobs
//     fit in the machine, and no job starts before its arrival;
//   - deterministic: a second Scheduler from newScheduler, on the same
//     workload, gives the same schedule and reservations.
//
// newScheduler must return a fresh Scheduler each call (a stateless one
// may be returned again).
func Scheduler(t *testing.T, newScheduler func() sched.Scheduler) {
	t.Helper()
	check(t, newScheduler)
}

func check(t rapid.TB, newScheduler func() sched.Scheduler) {
	t.Helper()
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorkload(t)
		a := w.run(t, newScheduler())
		b := w.run(t, newScheduler())
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
	perEvent bool
	jobs     []swf.Job
	cancels  [][2]int64 // (time, job ID)
}

func drawWorkload(t *rapid.T) workload {
	w := workload{P: rapid.Int64Range(1, 64).Draw(t, "P"), perEvent: rapid.Bool().Draw(t, "perEvent")}
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
		w.jobs = append(w.jobs, j)
	}
	for range rapid.IntRange(0, 3).Draw(t, "cancels") {
		w.cancels = append(w.cancels, [2]int64{rapid.Int64Range(0, at+3600).Draw(t, "cancel at"),
			rapid.Int64Range(1, int64(n)).Draw(t, "cancel job")})
	}
	return w
}

// outcome is one run's result.
type outcome struct{ res *sched.Result }

// run simulates the workload under s and checks the run's own properties.
func (w workload) run(t *rapid.T, s sched.Scheduler) outcome {
	sim, err := sched.New(sched.Config{MachineSize: w.P, Scheduler: s, PerEventPass: w.perEvent})
	if err != nil {
		t.Fatalf("sched.New: %v", err)
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
			case busy+j.Size() > w.P:
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
		t.Fatalf("Load: %v", err)
	}
	for _, c := range w.cancels {
		sim.At(c[0], func(int64) { sim.Cancel(c[1]) })
	}
	res, err := sim.Finish()
	switch {
	case errors.Is(err, sched.ErrStall):
		t.Fatalf("stall: %v", err)
	case err != nil:
		t.Fatalf("Finish: %v", err)
	case bad != nil:
		t.Fatalf("%v", bad)
	case res.Refused > 0:
		t.Fatalf("the simulator refused %d of the policy's actions (a job started twice or not waiting, a reservation before now or out of range, or an action on a kept Pass)", res.Refused)
	}
	return outcome{res}
}

// cmpErr keeps the first error.
func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}
