package sched_test

import (
	"cmp"
	"context"
	"slices"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// The built-in policies written again with only the exported Scheduler
// interface. Each must give the same per-job starts as its built-in.

// userFCFS starts jobs in arrival order while the first one fits.
type userFCFS struct{}

func (userFCFS) Schedule(p *sched.Pass) {
	for j := range p.Waiting() {
		if p.Start(j) != nil {
			return
		}
	}
}

// userEASY is EASY with a holder order and a backfill order (arrival,
// prediction, or LXF&W priority).
type userEASY struct {
	queue, backfill sched.Order
}

func (e userEASY) Schedule(p *sched.Pass) {
	for {
		h := e.first(p)
		if h == nil {
			return
		}
		if h.Size() > p.Free() {
			e.fill(p, h)
			return
		}
		p.Start(h)
	}
}

// ordered returns the waiting jobs in order o.
func ordered(p *sched.Pass, o sched.Order) []*sched.Job {
	var js []*sched.Job
	seq := p.Waiting()
	if o == sched.ByPrediction {
		seq = p.ByPrediction()
	}
	for j := range seq {
		js = append(js, j)
	}
	if o == sched.ByLXFW {
		prio := func(j *sched.Job) float64 {
			w := float64(p.Now()-j.Submit()) / 3600
			e := float64(max(j.Estimate(), 1)) / 3600
			return (w+e)/e + 0.02*w
		}
		slices.SortStableFunc(js, func(a, b *sched.Job) int { return cmp.Compare(prio(b), prio(a)) })
	}
	return js
}

func (e userEASY) first(p *sched.Pass) *sched.Job {
	if e.queue == sched.ByArrival {
		for j := range p.Waiting() {
			return j
		}
		return nil
	}
	if js := ordered(p, e.queue); len(js) > 0 {
		return js[0]
	}
	return nil
}

func (e userEASY) fill(p *sched.Pass, h *sched.Job) {
	shadow, extra := p.Shadow(h.Size())
	p.Reserve(h, max(shadow, p.Now()))
	for _, k := range ordered(p, e.backfill) {
		if p.Free() == 0 {
			return
		}
		if k == h || k.Size() > p.Free() {
			continue
		}
		switch {
		case p.Now()+k.Prediction() <= shadow:
		case k.Size() <= extra:
			extra -= k.Size()
		default:
			continue
		}
		p.Backfill(k)
	}
}

// userConservative gives every waiting job a reservation in the profile.
type userConservative struct{}

func (userConservative) Schedule(p *sched.Pass) {
	prof := p.Profile()
	waiting := slices.Collect(p.Waiting())
	idle := p.Free() == p.MachineSize()
	held := make(map[int64]bool, len(waiting))
	for _, j := range waiting {
		r := j.Reservation()
		if r < 0 {
			continue
		}
		if idle && r < p.Now() { // a passed reservation held only if it fits now
			if t, _ := prof.Fit(j.Size(), max(j.Prediction(), 1), p.Now()); t != p.Now() {
				continue
			}
		}
		held[j.ID()] = true
		prof.Allocate(max(r, p.Now()), max(j.Prediction(), 1), j.Size())
	}
	var start []*sched.Job
	for _, j := range waiting {
		d := max(j.Prediction(), 1)
		if held[j.ID()] {
			prof.Allocate(max(j.Reservation(), p.Now()), d, -j.Size())
		}
		t, _ := prof.Fit(j.Size(), d, p.Now())
		prof.Allocate(t, d, j.Size())
		if t == p.Now() {
			start = append(start, j)
			continue
		}
		p.Reserve(j, t)
	}
	for _, j := range start {
		p.Start(j)
	}
}

func TestUserPoliciesMatchBuiltins(t *testing.T) {
	users := map[string]sched.Scheduler{
		"FCFS":         userFCFS{},
		"EASY":         userEASY{},
		"EASY++":       userEASY{backfill: sched.ByPrediction},
		"SJF":          userEASY{queue: sched.ByPrediction, backfill: sched.ByPrediction},
		"LXF&W":        userEASY{queue: sched.ByLXFW, backfill: sched.ByLXFW},
		"Conservative": userConservative{},
	}
	for _, tc := range []struct {
		trace string
		P     int64
	}{{tracetest.KTH, 100}, {tracetest.SDSCSP2, 128}} {
		_, jobs, err := swf.ReadFile(tracetest.Path(t, tc.trace))
		if err != nil {
			t.Fatal(err)
		}
		if testing.Short() {
			jobs = jobs[:5000]
		}
		for name, user := range users {
			// Pass granularity, and the options that change which jobs
			// can backfill (kill at estimate, ties at the shadow): the
			// built-ins' shortcuts (EASY's memo of its last pass) must
			// give what the plain rewrite gives.
			for mode := range 4 {
				perEvent := mode%2 == 1
				opts := func(c sched.Config) sched.Config {
					c.PerEventPass = perEvent
					c.KillAtEstimate = mode == 2
					c.ShadowTies = mode == 3
					return c
				}
				want := opts(preset(name)(tc.P))
				got := opts(preset(name)(tc.P))
				got.Scheduler = user
				a, err := sched.Run(context.Background(), want, jobs)
				if err != nil {
					t.Fatal(err)
				}
				b, err := sched.Run(context.Background(), got, jobs)
				if err != nil {
					t.Fatal(err)
				}
				for i := range a.Records {
					if a.Records[i].Start != b.Records[i].Start {
						t.Errorf("%s %s mode %d: job %d starts at %d, built-in at %d", tracetest.ShortName(tc.trace), name, mode,
							a.Records[i].Job.ID, b.Records[i].Start, a.Records[i].Start)
						break
					}
				}
				if a.Summary.MeanWait != b.Summary.MeanWait || a.Summary.MeanBSLD != b.Summary.MeanBSLD {
					t.Errorf("%s %s mode %d: summary differs", tracetest.ShortName(tc.trace), name, mode)
				}
			}
		}
	}
}
