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
		cfg := Config{
			Point:         PointRule(rapid.IntRange(0, 1).Draw(t, "point")),
			Reboost:       rapid.Bool().Draw(t, "reboost"),
			AllowReuse:    rapid.Bool().Draw(t, "reuse"),
			DropDead:      rapid.Bool().Draw(t, "drop"),
			StopOnProduct: rapid.Bool().Draw(t, "stop"),
		}
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
			fc := varq.ForecasterFunc(func(_ int, _, within int64) float64 {
				q := pShort
				if within >= cut {
					q = p
				}
				if m.Now() >= at {
					q *= fall
				}
				return q
			})
			ms, fcs = append(ms, m), append(fcs, fc)
		}
		e, err := fakeExecutor(ms, fcs)
		if err != nil {
			t.Fatal(err)
		}
		reqs := make([]varq.Request, count)
		for i := range reqs {
			reqs[i] = varq.Request{Nodes: 4, Walltime: 3600, Start: rapid.Int64Range(600, 6*3600).Draw(t, "start")}
		}
		pAll := rapid.Float64Range(0.05, 1).Draw(t, "pAll")
		p, err := New(reqs, e.Resources(), pAll, 0, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if !p.OK {
			return
		}
		x := execute(t, e, p, reqs, ms, 12*3600)
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
			t.Fatalf("%d re-boosts with forecasts that never change: %+v", res.Reboosts, p)
		}
	})
}
