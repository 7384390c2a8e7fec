package coalloc

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/batchq/batchq/varq"
	"github.com/batchq/batchq/varq/varqtest"
)

// dropping is a forecaster that answers high until the clock of m reaches
// at, and low from then on: a queue that got worse after the plan.
func dropping(m *varqtest.FakeMachine, at int64, high, low float64) varq.Forecaster {
	return varq.ForecasterFunc(func(int, int64, int64) (float64, bool) {
		if m.Now() >= at {
			return low, true
		}
		return high, true
	})
}

// reboostSites builds three fake sites A, B, C whose jobs wait delays[i]
// (negative: never start). A's forecast falls from 0.95 to aLow at dropAt;
// B and C answer 0.90 and 0.80 throughout.
func reboostSites(t *testing.T, dropAt int64, aLow float64, delays []int64) (*Executor, []*varqtest.FakeMachine) {
	t.Helper()
	ms := delayMachines(delays)
	e, err := fakeExecutor(ms, []varq.Forecaster{dropping(ms[0], dropAt, 0.95, aLow), constant(0.90), constant(0.80)})
	if err != nil {
		t.Fatal(err)
	}
	return e, ms
}

func TestReboost(t *testing.T) {
	const lead = 4 * 3600
	r := varq.Request{Nodes: 4, Walltime: 3600, Start: lead}
	for _, c := range []struct {
		name     string
		dropAt   int64
		aLow     float64
		cfg      Config
		reboosts int
		dropped  int
		jobsOn   []int // jobs submitted per site
	}{
		// Every request is planned at the latest argmax, 14370 (constant
		// forecasts). A stays at 0.95 ≥ P_indep = 0.90: nothing is added.
		{"stays above", 3600, 0.95, Config{Reboost: true}, 0, 0, []int{1, 0, 0}},
		// A, still waiting to be submitted, falls to 0.50 at 3600:
		// 1 − 0.5 < 0.90, so B (the best free site, 0.90) is drawn;
		// 1 − 0.5·0.1 = 0.95 meets the target and C is not drawn.
		{"pending falls", 3600, 0.50, Config{Reboost: true}, 1, 0, []int{1, 1, 0}},
		// A falls after its submission, while queued: the review at 14370
		// runs after A's submission (timers fire in the order they were
		// set), draws B, which is submitted at once and starts at 14380.
		{"queued falls", 14370, 0.50, Config{Reboost: true}, 1, 0, []int{1, 1, 0}},
		// Without Reboost the plan runs as made, whatever the forecasts.
		{"off", 3600, 0.50, Config{}, 0, 0, []int{1, 0, 0}},
		// A falls to 0.85: one more request is enough, and the draw is
		// by probability, so B is taken (0.985), not C.
		{"falls a little", 3600, 0.85, Config{Reboost: true}, 1, 0, []int{1, 1, 0}},
		// A falls to 0: B is drawn (0.90 meets the target by itself). A
		// is kept by default; DropDead drops it before its submission
		// since B replaces it.
		{"dead kept", 3600, 0, Config{Reboost: true}, 1, 0, []int{1, 1, 0}},
		{"dead dropped", 3600, 0, Config{Reboost: true, DropDead: true}, 1, 1, []int{0, 1, 0}},
		{"dead queued dropped", 14370, 0, Config{Reboost: true, DropDead: true}, 1, 1, []int{1, 1, 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			// Every job waits 10 s except A's, which never starts, so
			// the reservation is served by B if B is drawn.
			e, ms := reboostSites(t, c.dropAt, c.aLow, []int64{-1, 10, 10})
			p, err := NewPlan([]varq.Request{r}, e.Resources(), 0.90, 0, c.cfg)
			if err != nil || !p.OK || p.Requests() != 1 || p.Sets[0][0] != 0 {
				t.Fatalf("plan %+v, %v; want A alone", p, err)
			}
			x := execute(t, e, p, []varq.Request{r}, ms, 30000)
			res := x.Result()
			if res.Reboosts != c.reboosts || res.Dropped != c.dropped {
				t.Errorf("reboosts %d, dropped %d; want %d, %d", res.Reboosts, res.Dropped, c.reboosts, c.dropped)
			}
			for i, m := range ms {
				if len(m.Jobs) != c.jobsOn[i] {
					t.Errorf("site %c got %d jobs, want %d", 'A'+i, len(m.Jobs), c.jobsOn[i])
				}
				for _, j := range m.Jobs {
					if j.Submit >= r.Start {
						t.Errorf("site %c: job submitted at %d, start %d", 'A'+i, j.Submit, r.Start)
					}
				}
			}
			// Served exactly when B was drawn, since A never starts.
			if res.Success != (c.jobsOn[1] > 0) {
				t.Errorf("success %v with jobs %v", res.Success, c.jobsOn)
			}
			for _, j := range ms[0].Jobs {
				if !j.Cancelled {
					t.Error("A's request not cancelled")
				}
			}
		})
	}
}

// A re-boost draws only resources no reservation of the co-allocation
// holds: with B taken by the other reservation, A's reservation gets C and
// then has nothing left to draw.
func TestReboostWithoutReplacement(t *testing.T) {
	const lead = 4 * 3600
	r := varq.Request{Nodes: 4, Walltime: 3600, Start: lead}
	// Forecasts: A 0.99 → 0.50 at 3600, B 0.99, C 0.80. The two
	// reservations (P_indep = √0.9 = 0.949) are planned on A and B.
	ms := delayMachines([]int64{-1, -1, -1})
	e, err := fakeExecutor(ms, []varq.Forecaster{dropping(ms[0], 3600, 0.99, 0.50), constant(0.99), constant(0.80)})
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlan([]varq.Request{r, r}, e.Resources(), 0.90, 0, Config{Reboost: true})
	if err != nil || !p.OK || p.Sets[0][0] != 0 || p.Sets[1][0] != 1 || p.Requests() != 2 {
		t.Fatalf("plan %+v, %v", p, err)
	}
	x := execute(t, e, p, []varq.Request{r, r}, ms, 30000)
	// Reservation 0 falls to 0.50 and draws C: 1 − 0.5·0.2 = 0.90 <
	// 0.949 still, but B is the other reservation's, so it stops there,
	// and the later reviews find nothing to draw either.
	if res := x.Result(); res.Reboosts != 1 || len(ms[1].Jobs) != 1 || len(ms[2].Jobs) != 1 || res.Success {
		t.Errorf("reboosts %d, jobs on B %d, on C %d, success %v; want 1, 1, 1, false",
			res.Reboosts, len(ms[1].Jobs), len(ms[2].Jobs), res.Success)
	}
}

// A review period past 2^40 s is refused: from a plan executed at 100,
// now + ReboostEvery = 100 + (2^63 − 1) wrapped into the past, and the
// executor set a timer before the machine's clock (a sched machine runs
// it at once, again and again at one instant; the fake machine panics).
// At 2^40 the plan runs, with no review before the start.
func TestReboostEveryRange(t *testing.T) {
	const now = 100
	r := varq.Request{Nodes: 4, Walltime: 3600, Start: 4 * 3600}
	run := func(every int64) (Result, error) {
		e, ms := reboostSites(t, 3600, 0.50, []int64{-1, 10, 10})
		for _, m := range ms {
			m.RunUntil(now)
		}
		p, err := NewPlan([]varq.Request{r}, e.Resources(), 0.90, now, Config{Reboost: true, ReboostEvery: every})
		if err != nil {
			return Result{}, err
		}
		var res Result
		func() {
			defer func() {
				if v := recover(); v != nil {
					err = fmt.Errorf("panic: %v", v)
				}
			}()
			res = execute(t, e, p, []varq.Request{r}, ms, 30000).Result()
		}()
		return res, err
	}
	for _, every := range []int64{maxPeriod + 1, 1 << 62, math.MaxInt64} {
		if res, err := run(every); err == nil || strings.HasPrefix(err.Error(), "panic") {
			t.Errorf("ReboostEvery %d: %+v, %v; want the plan refused", every, res, err)
		}
	}
	if res, err := run(maxPeriod); err != nil || res.Reboosts != 0 {
		t.Errorf("ReboostEvery 2^40: %+v, %v; want no re-boost before the start", res, err)
	}
}
