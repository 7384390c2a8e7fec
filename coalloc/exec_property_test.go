package coalloc

import (
	"testing"

	"github.com/batchq/batchq/varq"
	"github.com/batchq/batchq/varq/varqtest"
	"pgregory.net/rapid"
)

// TestExecuteProperties executes random plans, with and without the
// remedies, on fake machines whose forecasts change at random times and
// whose jobs start after random delays (or never), and checks what must
// hold whatever the forecasts: no submission at or after a reservation's
// start; without replacement, one request per resource per co-allocation;
// every job started or cancelled; the allocation recorded is what the
// machines were occupied; success means every reservation was served by
// its start; and with forecasts that never change (in time or with the
// window), re-boosting never adds a request to a plan that met its targets
// (the stop rule). A forecast that depends on the window does change for a
// queued job, whose window shrinks while it waits.
func TestExecuteProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nsites := rapid.IntRange(1, 5).Draw(t, "sites")
		count := rapid.IntRange(1, 3).Draw(t, "count")
		static := rapid.Bool().Draw(t, "static")
		cfg := drawConfig(t)
		var ms []*varqtest.FakeMachine
		var fcs []varq.Forecaster
		for range nsites {
			delay := rapid.Int64Range(-1, 4*3600).Draw(t, "delay")
			m := &varqtest.FakeMachine{Delay: func(int, int64) int64 { return delay }}
			// p for windows of at least cut seconds, pShort below; from
			// at on, both scaled by fall (the queue got worse or better).
			p := rapid.Float64Range(0, 1).Draw(t, "p")
			pShort := rapid.Float64Range(0, 1).Draw(t, "pShort")
			cut := rapid.Int64Range(0, 4*3600).Draw(t, "cut")
			at := rapid.Int64Range(0, 6*3600).Draw(t, "at")
			fall := rapid.Float64Range(0, 1).Draw(t, "fall")
			if static { // one probability for every window, at every time
				cut, fall = 0, 1
			}
			fc := varq.ForecasterFunc(func(_ int, _, within int64) (float64, bool) {
				q := pShort
				if within >= cut {
					q = p
				}
				if m.Now() >= at {
					q *= fall
				}
				return q, true
			})
			ms, fcs = append(ms, m), append(fcs, fc)
		}
		reqs, pAll := drawRequests(t, count)
		x := planAndExecute(t, ms, fcs, reqs, pAll, cfg)
		if x == nil {
			return
		}
		res := x.Result()
		var occupied int64
		perSite := make([]int, nsites)
		for i := range reqs {
			served := false
			for _, j := range x.jobs[i] {
				perSite[j.site]++
				if j.state == running {
					served = true
				}
				if j.state == pending || j.state == queued {
					t.Fatalf("reservation %d: request on %d left %v", i, j.site, j.state)
				}
				if j.state == queued || j.state == running || j.walltime > 0 {
					fj := ms[j.site].Jobs[j.id]
					if fj.Submit >= reqs[i].Start {
						t.Fatalf("reservation %d: submitted on %d at %d, start %d", i, j.site, fj.Submit, reqs[i].Start)
					}
				}
			}
			if served != res.Satisfied[i] {
				t.Fatalf("reservation %d: served %v, result %v", i, served, res.Satisfied[i])
			}
		}
		for s, n := range perSite {
			if !cfg.AllowReuse && n > 1 {
				t.Fatalf("site %d drawn %d times without replacement", s, n)
			}
			for _, j := range ms[s].Jobs {
				occupied += j.Occupancy()
				if !j.Started && !j.Cancelled {
					t.Fatalf("site %d: job %+v neither started nor cancelled", s, j)
				}
			}
		}
		if occupied != res.Used {
			t.Fatalf("machines occupied %d node-s, result says %d", occupied, res.Used)
		}
		if !cfg.Reboost && res.Reboosts != 0 {
			t.Fatalf("%d re-boosts without Reboost", res.Reboosts)
		}
		if static && !cfg.StopOnProduct && res.Reboosts != 0 {
			t.Fatalf("%d re-boosts with forecasts that never change: %+v", res.Reboosts, x.plan)
		}
	})
}

// drawConfig draws every option combination of the planner and executor.
func drawConfig(t *rapid.T) Config {
	return Config{
		LatestMeeting: rapid.Bool().Draw(t, "latest"),
		Reboost:       rapid.Bool().Draw(t, "reboost"),
		AllowReuse:    rapid.Bool().Draw(t, "reuse"),
		DropDead:      rapid.Bool().Draw(t, "drop"),
		StopOnProduct: rapid.Bool().Draw(t, "stop"),
	}
}

// drawRequests draws count reservations of 4 nodes × 1 h starting within
// 6 h, and their joint target.
func drawRequests(t *rapid.T, count int) ([]varq.Request, float64) {
	reqs := make([]varq.Request, count)
	for i := range reqs {
		reqs[i] = varq.Request{Nodes: 4, Walltime: 3600, Start: rapid.Int64Range(600, 6*3600).Draw(t, "start")}
	}
	return reqs, rapid.Float64Range(0.05, 1).Draw(t, "pAll")
}

// planAndExecute plans reqs at 0 on fake sites (machines ms, forecasters
// fcs) and executes the plan for 12 h; nil when no plan is possible.
func planAndExecute(t *rapid.T, ms []*varqtest.FakeMachine, fcs []varq.Forecaster, reqs []varq.Request, pAll float64, cfg Config) *Execution {
	e, err := fakeExecutor(ms, fcs)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlan(reqs, e.Resources(), pAll, 0, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !p.OK {
		return nil
	}
	return execute(t, e, p, reqs, ms, 12*3600)
}
