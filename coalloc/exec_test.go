package coalloc

import (
	"math"
	"testing"

	"github.com/batchq/batchq/varq"
	"github.com/batchq/batchq/varq/varqtest"
)

func constant(p float64) varq.Forecaster {
	return varq.ForecasterFunc(func(int, int64, int64) (float64, bool) { return p, true })
}

// fakeSites builds sites on fake machines; delays[i] is site i's queue
// wait (negative: jobs never start).
func fakeSites(t *testing.T, probs []float64, delays []int64) (*Executor, []*varqtest.FakeMachine) {
	t.Helper()
	ms := delayMachines(delays)
	fcs := make([]varq.Forecaster, len(probs))
	for i, p := range probs {
		fcs[i] = constant(p)
	}
	e, err := fakeExecutor(ms, fcs)
	if err != nil {
		t.Fatal(err)
	}
	return e, ms
}

// delayMachines makes one fake machine per delay (negative: jobs never
// start).
func delayMachines(delays []int64) []*varqtest.FakeMachine {
	ms := make([]*varqtest.FakeMachine, len(delays))
	for i, d := range delays {
		ms[i] = &varqtest.FakeMachine{Delay: func(int, int64) int64 { return d }}
	}
	return ms
}

// fakeExecutor makes sites A, B, … of machine ms[i] and forecaster fcs[i],
// and tells the Executor when their jobs start.
func fakeExecutor(ms []*varqtest.FakeMachine, fcs []varq.Forecaster) (*Executor, error) {
	sites := make([]Site, len(ms))
	for i, m := range ms {
		sites[i] = Site{Name: string(rune('A' + i)), Forecaster: fcs[i], Machine: m}
	}
	e, err := NewExecutor(sites)
	if err != nil {
		return nil, err
	}
	for i, m := range ms {
		m.OnStart = func(id, at int64) { e.Started(i, id, at) }
	}
	return e, nil
}

// execute carries plan p of reqs out on the fake machines ms until the
// given time and fails the test on any executor error. t is a
// *testing.T or a *rapid.T.
func execute(t interface {
	Helper()
	Fatal(...any)
}, e *Executor, p Plan, reqs []varq.Request, ms []*varqtest.FakeMachine, until int64) *Execution {
	t.Helper()
	x, err := e.Execute(p, reqs)
	if err != nil {
		t.Fatal(err)
	}
	lockstep(ms, until, 30)
	if e.Err() != nil {
		t.Fatal(e.Err())
	}
	return x
}

// lockstep advances the fake machines together, as simulations of
// different machines on one time axis.
func lockstep(ms []*varqtest.FakeMachine, until, step int64) {
	for t := int64(0); t <= until; t += step {
		for _, m := range ms {
			m.RunUntil(t)
		}
	}
}

func TestExecuteCancelsRedundant(t *testing.T) {
	const lead = 4 * 3600
	r := varq.Request{Nodes: 4, Walltime: 3600, Start: lead}
	reqs := []varq.Request{r, r}
	for _, c := range []struct {
		name    string
		delays  []int64
		success bool
		used    int64
	}{
		// The plan (see Example): res1 on A (0.90) + B (0.80), res2 on C
		// (0.85) + D (0.70); every request is submitted at the latest
		// argmax, 14370, with walltime 3630. A starts at 14380 and C at
		// 14390: B and D are cancelled in the queue.
		{"served", []int64{10, -1, 20, 5000}, true, 4*(18000-14380) + 4*(18000-14390)},
		// A starts exactly at the start time, 14400: a success (start ≤
		// D), not a miss cancelled by the start-time drop.
		{"at the start", []int64{30, -1, 20, 5000}, true, 4*(18000-14400) + 4*(18000-14390)},
		// Nothing of res2 starts by the start time: both its requests are
		// cancelled at 14400 and the co-allocation fails.
		{"missed", []int64{10, -1, -1, 5000}, false, 4 * (18000 - 14380)},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, ms := fakeSites(t, []float64{0.90, 0.80, 0.85, 0.70}, c.delays)
			p, err := NewPlan(reqs, e.Resources(), 0.90, 0, Config{})
			if err != nil || !p.OK || p.Requests() != 4 {
				t.Fatalf("plan %+v, %v", p, err)
			}
			x := execute(t, e, p, reqs, ms, 30000)
			res := x.Result()
			if res.Success != c.success || res.Used != c.used || res.Required != 2*4*3600 || res.Planned != 4 || res.Submitted != 4 {
				t.Errorf("result %+v", res)
			}
			occupied := int64(0)
			for _, m := range ms {
				for _, j := range m.Jobs {
					occupied += j.Occupancy()
					if j.Submit != 14370 || j.Walltime != 3630 {
						t.Errorf("job %+v, want submitted at 14370 for 3630 s", j)
					}
					if !j.Started && !j.Cancelled {
						t.Errorf("job %+v neither ran nor was cancelled", j)
					}
				}
			}
			if occupied != c.used {
				t.Errorf("machines occupied %d node-s, execution says %d", occupied, c.used)
			}
		})
	}
}

// A plan naming a resource the executor does not have is refused whole:
// no reservation before the bad one reaches a machine.
func TestExecuteRefusesBadPlanWhole(t *testing.T) {
	const lead = 4 * 3600
	r := varq.Request{Nodes: 4, Walltime: 3600, Start: lead}
	reqs := []varq.Request{r, r}
	e, ms := fakeSites(t, []float64{0.90, 0.80, 0.85, 0.70}, []int64{10, 10, 10, 10})
	p, err := NewPlan(reqs, e.Resources(), 0.90, 0, Config{})
	if err != nil || !p.OK {
		t.Fatalf("plan %+v, %v", p, err)
	}
	p.Launch[1][0].Resource = len(ms)
	if _, err := e.Execute(p, reqs); err == nil {
		t.Fatal("a plan with resource out of range was executed")
	}
	lockstep(ms, 30000, 30)
	for i, m := range ms {
		if len(m.Jobs) != 0 {
			t.Errorf("site %d got %d jobs from a refused plan", i, len(m.Jobs))
		}
	}
}

// Node-seconds are held at 2^63 − 1: a request of 2^40 nodes for 2^40 s
// (Request.Validate allows any node count) wrapped Required to 0 and Used
// to a few node-hours.
func TestNodeSecondsNoWrap(t *testing.T) {
	e, ms := fakeSites(t, []float64{0.99}, []int64{10})
	r := varq.Request{Nodes: 1 << 40, Walltime: 1 << 40, Start: 3600}
	p, err := NewPlan([]varq.Request{r}, e.Resources(), 0.9, 0, Config{})
	if err != nil || !p.OK {
		t.Fatalf("plan %+v, %v", p, err)
	}
	res := execute(t, e, p, []varq.Request{r}, ms, 4000).Result()
	if !res.Success || res.Required != math.MaxInt64 || res.Used != math.MaxInt64 {
		t.Errorf("success %v, required %d, used %d; want true and both 2^63 − 1", res.Success, res.Required, res.Used)
	}
}
