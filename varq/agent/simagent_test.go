package agent

import (
	"math"
	"testing"

	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/varq"
	"github.com/batchq/batchq/varq/varqtest"
)

func TestSimAgentAccounting(t *testing.T) {
	// Submissions at least 600 s before the start succeed with 0.8.
	f := &shiftingForecaster{cut: 600, hi: 0.8, lo: 0.3}
	job := swf.Job{Submit: 1000, RunTime: 1800, ReqTime: 3600, AllocProcs: 8}
	for _, c := range []struct {
		name      string
		delay     int64
		reqProb   float64
		cancel    bool
		success   bool
		used, end int64 // node-seconds; when the job left the machine
	}{
		// The trajectory's grid is 1000 + 30k: the latest point at least
		// 600 s before the start is 20980. Submitted then, the job starts
		// 100 s later, spins 520 s and works 1800 s.
		{"success", 100, 0.75, false, true, 8 * (520 + 1800), 21600 + 1800},
		// Starts 280 s after the start time: a miss that runs its work anyway.
		{"late", 900, 0.75, false, false, 8 * 1800, 21880 + 1800},
		// The same miss, cancelled at the start time: it occupies nothing.
		{"cancelled", 900, 0.75, true, false, 0, -1},
		// Target out of reach: refused, submitted as an ordinary job at once.
		{"refused", 100, 0.9, false, false, 0, 1100 + 1800},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := &varqtest.FakeMachine{Delay: func(int, int64) int64 { return c.delay }}
			a, err := New(m, f, Config{Fraction: 1, Replan: varq.ReplanConfig{ReqProb: c.reqProb, OnlyAtSubmit: true}, CancelMissed: c.cancel})
			if err != nil {
				t.Fatal(err)
			}
			m.OnStart = a.Started
			if !a.Select() {
				t.Fatal("Fraction 1 did not select")
			}
			m.At(job.Submit, func() { a.Arrive(job) })
			m.Run()
			if a.Err() != nil {
				t.Fatal(a.Err())
			}
			o := a.Outcomes()[0]
			if o.Success != c.success || o.Used != c.used || o.Required != 8*1800 {
				t.Errorf("outcome %+v", o)
			}
			j := m.Jobs[0]
			if c.end < 0 && j.Started || c.end >= 0 && j.End != c.end {
				t.Errorf("job %+v, want end %d", j, c.end)
			}
			// The machine's occupancy matches the agent's accounting (a
			// refused job is ordinary work, outside it).
			occupied := j.Occupancy()
			if c.name == "refused" && occupied != 8*1800 || c.name != "refused" && c.end >= 0 && occupied != c.used {
				t.Errorf("machine occupancy %d, agent says %d", occupied, c.used)
			}
			if c.name != "refused" && (o.Submit != 20980 || j.Walltime != 3600+620 || o.Plan.Prob != 0.8) {
				t.Errorf("submitted at %d with walltime %d, plan %v", o.Submit, j.Walltime, o.Plan)
			}
		})
	}
}

func TestSimAgentSelectionAndStarts(t *testing.T) {
	m := &varqtest.FakeMachine{}
	f := &shiftingForecaster{cut: 600, hi: 0.8, lo: 0.3}
	a, err := New(m, f, Config{Fraction: 0.3, Replan: varq.ReplanConfig{ReqProb: 0.5}, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for range 10000 {
		if a.Select() {
			n++
		}
	}
	if n < 2800 || n > 3200 {
		t.Errorf("selected %d of 10000 at 0.3", n)
	}
	for _, c := range [][2]int64{{0, 21600}, {1, 21600}, {21599, 21600}, {21600, 43200}, {-1, 0}, {-21600, 0}} {
		if got := a.NextStart(c[0]); got != c[1] {
			t.Errorf("NextStart(%d) = %d, want %d", c[0], got, c[1])
		}
	}
	for _, cfg := range []Config{{Fraction: 2, Replan: varq.ReplanConfig{ReqProb: 0.5}}, {Fraction: 0.1}, {Fraction: 0.1, Period: -1, Replan: varq.ReplanConfig{ReqProb: 0.5}}} {
		if _, err := New(m, f, cfg); err == nil {
			t.Errorf("config %+v accepted", cfg)
		}
	}
	if _, err := New(nil, f, Config{Replan: varq.ReplanConfig{ReqProb: 0.5}}); err == nil {
		t.Error("nil machine accepted")
	}
}

// Node-seconds are held at 2^63 − 1: a job of 2^40 processors working
// 2^40 s (sched's limits) had Required 0 (a wrapped 2^80), and the
// summary summed such wraps.
func TestNodeSecondsNoWrap(t *testing.T) {
	f := &shiftingForecaster{cut: 600, hi: 0.8, lo: 0.3}
	job := swf.Job{Submit: 1000, RunTime: 1 << 40, ReqTime: 1 << 40, AllocProcs: 1 << 40}
	m := &varqtest.FakeMachine{Delay: func(int, int64) int64 { return 100 }}
	a, err := New(m, f, Config{Fraction: 1, Replan: varq.ReplanConfig{ReqProb: 0.75, OnlyAtSubmit: true}})
	if err != nil {
		t.Fatal(err)
	}
	m.OnStart = a.Started
	if !a.Select() {
		t.Fatal("Fraction 1 did not select")
	}
	m.At(job.Submit, func() { a.Arrive(job) })
	m.Run()
	if a.Err() != nil {
		t.Fatal(a.Err())
	}
	o := a.Outcomes()[0]
	if !o.Success || o.Required != math.MaxInt64 || o.Used != math.MaxInt64 {
		t.Errorf("outcome: success %v, required %d, used %d; want true and both 2^63 − 1", o.Success, o.Required, o.Used)
	}
	if s := summarize(append(a.Outcomes(), o)); s.Required != math.MaxInt64 || s.Used != math.MaxInt64 {
		t.Errorf("summary of two: required %d, used %d; want both 2^63 − 1", s.Required, s.Used)
	}
}
